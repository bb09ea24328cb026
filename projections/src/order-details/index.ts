/*
 * The order detail read models: the view page's document, the mail, download and comment
 * histories, and the audit timeline of every stream.
 */
export { orderDetailsProjection, ORDER_DETAIL_TABLES } from "./order-details-projection.ts";
export {
  orderDetails,
  downloadHistory,
  auditTimeline,
  maskIp as maskPublicIp,
  AUDIT_PAGE_DEFAULT,
  AUDIT_PAGE_MAX,
  type OrderDetails,
  type MailHistoryEntry,
  type UploadDocEntry,
  type DownloadHistoryEntry,
  type RemarkEntry,
  type DefencePackEntry,
  type AuditLine,
  type AuditTarget,
  type AuditPaging,
  type AuditPage,
} from "./order-details-queries.ts";
export { type OrderDocument, type ProcessingFields as OrderProcessingFields } from "./order-document.ts";
// The sentence builder, for a reader that wants the same words outside the timeline table.
export { describeEvent as describeAuditEvent, ERASED_FILE, type AuditContext, type KnownStaff } from "./audit-sentence.ts";
// The back office's clock (US Eastern), for anything else that states times the same way.
export { usEastern, type EasternDateTime } from "@etd/contract";
