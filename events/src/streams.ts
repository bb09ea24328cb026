import * as Schema from "effect/Schema";
import { EventId, isOrderId, StaffId, type OrderId } from "./shared/ids.ts";

/** Stream names (DESIGN §3). One order, one staff member, all gateways or the service-level policy per stream. */
export const orderStream = (orderId: OrderId): string => `order-${orderId}`;
export const staffStream = (staffId: StaffId): string => `staff-${staffId}`;
export const GATEWAYS_STREAM = "gateways";
/** The service-level policy and its versions (issue 27). */
export const SERVICE_LEVELS_STREAM = "service-levels";
/** What Admins asked of the running system from the operator's screen (issue 28). */
export const OPERATIONS_STREAM = "operations";
/** One mail, named by the id of the order event that asked for it (DESIGN §8). */
export const mailStream = (mailId: EventId): string => `mail-${mailId}`;
/** One calendar year's invoice register: its numbers run 1, 2, 3 … with no gap (ADMIN-6). */
export const invoiceRegisterStream = (year: number): string => `invoices-${String(year)}`;

export type StreamRef =
  | { readonly category: "order"; readonly orderId: OrderId }
  | { readonly category: "staff"; readonly staffId: StaffId }
  | { readonly category: "gateways" }
  | { readonly category: "service-levels" }
  | { readonly category: "operations" }
  | { readonly category: "mail"; readonly mailId: EventId }
  | { readonly category: "invoices"; readonly year: number };

const isStaffId = Schema.is(StaffId);
const isEventId = Schema.is(EventId);

/** The reverse, for readers of the global log; undefined for a name no helper above makes. */
export const parseStreamName = (streamName: string): StreamRef | undefined => {
  if (streamName === GATEWAYS_STREAM) return { category: "gateways" };
  if (streamName === SERVICE_LEVELS_STREAM) return { category: "service-levels" };
  if (streamName === OPERATIONS_STREAM) return { category: "operations" };
  if (streamName.startsWith("order-")) {
    const orderId = streamName.slice("order-".length);
    return isOrderId(orderId) ? { category: "order", orderId } : undefined;
  }
  if (streamName.startsWith("staff-")) {
    const staffId = streamName.slice("staff-".length);
    return isStaffId(staffId) ? { category: "staff", staffId } : undefined;
  }
  if (streamName.startsWith("mail-")) {
    const mailId = streamName.slice("mail-".length);
    return isEventId(mailId) ? { category: "mail", mailId } : undefined;
  }
  if (streamName.startsWith("invoices-")) {
    const year = streamName.slice("invoices-".length);
    return /^\d{4}$/.test(year) ? { category: "invoices", year: Number(year) } : undefined;
  }
  return undefined;
};
