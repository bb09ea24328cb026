import { Schema } from "effect";
import { OrderId, StaffId } from "./shared/ids.ts";

/** Stream names (DESIGN §3). One order, one staff member, or all gateways per stream. */
export const orderStream = (orderId: OrderId): string => `order-${orderId}`;
export const staffStream = (staffId: StaffId): string => `staff-${staffId}`;
export const GATEWAYS_STREAM = "gateways";

export type StreamRef =
  | { readonly category: "order"; readonly orderId: OrderId }
  | { readonly category: "staff"; readonly staffId: StaffId }
  | { readonly category: "gateways" };

const isOrderId = Schema.is(OrderId);
const isStaffId = Schema.is(StaffId);

/** The reverse, for readers of the global log; undefined for a name no helper above makes. */
export const parseStreamName = (streamName: string): StreamRef | undefined => {
  if (streamName === GATEWAYS_STREAM) return { category: "gateways" };
  if (streamName.startsWith("order-")) {
    const orderId = streamName.slice("order-".length);
    return isOrderId(orderId) ? { category: "order", orderId } : undefined;
  }
  if (streamName.startsWith("staff-")) {
    const staffId = streamName.slice("staff-".length);
    return isStaffId(staffId) ? { category: "staff", staffId } : undefined;
  }
  return undefined;
};
