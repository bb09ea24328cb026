import * as Schema from "effect/Schema";

/**
 * The order number customers and staff quote: digits only, at least six of them (001 §5, "Order
 * Id must be at least 6 characters"). A string, not a number, so leading zeros and long ids
 * survive JSON.
 */
export const OrderId = Schema.String.check(
  Schema.isPattern(/^\d{6,20}$/, { message: "an order id is 6 to 20 digits" }),
).pipe(Schema.brand("OrderId"));
export type OrderId = typeof OrderId.Type;
/** Whether a text from outside (a path, a key) is an order id. */
export const isOrderId = Schema.is(OrderId);

// Staff and gateway ids end up in stream names (`staff-{id}`) and URL paths, so only characters
// that need no escaping anywhere. Their format is otherwise the write side's choice (UUIDs for new
// ones, numbers for imported ones).
const ID_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

export const StaffId = Schema.String.check(
  Schema.isPattern(ID_TOKEN, { message: "a staff id is 1 to 64 letters, digits, '-' or '_'" }),
).pipe(Schema.brand("StaffId"));
export type StaffId = typeof StaffId.Type;

export const GatewayId = Schema.String.check(
  Schema.isPattern(ID_TOKEN, { message: "a gateway id is 1 to 64 letters, digits, '-' or '_'" }),
).pipe(Schema.brand("GatewayId"));
export type GatewayId = typeof GatewayId.Type;

/** The store's id of one event; a retried append with the same id is a no-op. */
export const EventId = Schema.String.check(
  Schema.isUUID(undefined, { message: "an event id is a UUID" }),
).pipe(Schema.brand("EventId"));
export type EventId = typeof EventId.Type;

/**
 * Correlation and causation ids: a request id from the HTTP edge, a command id, or the id of the
 * event a reactor reacted to. Not necessarily UUIDs, because request ids can come from a proxy.
 */
export const MessageId = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9._:-]{1,128}$/, {
    message: "a message id is 1 to 128 letters, digits or . _ : -",
  }),
);
