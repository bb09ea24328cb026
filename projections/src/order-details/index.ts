/*
 * The order detail read models: the view page's document, the mail, download and comment
 * histories, and the audit timeline of every stream.
 */
export { orderDetailsProjection, ORDER_DETAIL_TABLES } from "./order-details-projection.ts";
export {
  orderDetails,
  downloadHistory,
  auditTimeline,
  AUDIT_PAGE_MAX,
  type OrderDetails,
  type AuditLine,
  type AuditTarget,
} from "./order-details-queries.ts";
// The sentence builder, for a reader that wants the same words outside the timeline table.
export { describeEvent as describeAuditEvent, type AuditContext, type KnownStaff } from "./audit-sentence.ts";
