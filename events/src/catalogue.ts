import * as Schema from "effect/Schema";
import { GATEWAY_EVENTS } from "./gateways/gateway-events.ts";
import { INVOICE_EVENTS } from "./invoices/invoice-events.ts";
import { MAIL_EVENTS } from "./mail/mail-events.ts";
import { OPERATION_EVENTS } from "./operations/operation-events.ts";
import { ORDER_EVENTS } from "./orders/order-events.ts";
import { SERVICE_LEVEL_EVENTS } from "./service-levels/service-level-events.ts";
import type { EventDefinition } from "./shared/event-definition.ts";
import { STAFF_EVENTS } from "./staff/staff-events.ts";

/** Every event type a stream category may hold; each category's list sits beside its events. */
export { GATEWAY_EVENTS, INVOICE_EVENTS, MAIL_EVENTS, OPERATION_EVENTS, ORDER_EVENTS, SERVICE_LEVEL_EVENTS, STAFF_EVENTS };

export const CATALOGUE = [...ORDER_EVENTS, ...STAFF_EVENTS, ...GATEWAY_EVENTS, ...MAIL_EVENTS, ...INVOICE_EVENTS, ...SERVICE_LEVEL_EVENTS, ...OPERATION_EVENTS] as const;

type SchemasOf<Defs extends ReadonlyArray<EventDefinition>> = {
  readonly [K in keyof Defs]: Defs[K]["schema"];
};

const unionOf = <const Defs extends ReadonlyArray<EventDefinition>>(defs: Defs) =>
  Schema.Union(defs.map((d) => d.schema) as unknown as SchemasOf<Defs>);

export const OrderEvent = unionOf(ORDER_EVENTS);
export type OrderEvent = typeof OrderEvent.Type;

export const StaffEvent = unionOf(STAFF_EVENTS);
export type StaffEvent = typeof StaffEvent.Type;

export const GatewayEvent = unionOf(GATEWAY_EVENTS);
export type GatewayEvent = typeof GatewayEvent.Type;

export const ServiceLevelEvent = unionOf(SERVICE_LEVEL_EVENTS);
export type ServiceLevelEvent = typeof ServiceLevelEvent.Type;

export const OperationEvent = unionOf(OPERATION_EVENTS);
export type OperationEvent = typeof OperationEvent.Type;

export const MailEvent = unionOf(MAIL_EVENTS);
export type MailEvent = typeof MailEvent.Type;

export const InvoiceEvent = unionOf(INVOICE_EVENTS);
export type InvoiceEvent = typeof InvoiceEvent.Type;

export const AnyEvent = unionOf(CATALOGUE);
export type AnyEvent = typeof AnyEvent.Type;

export type EventType = AnyEvent["type"];

export type EventOfType<T extends EventType> = Extract<AnyEvent, { readonly type: T }>;

/**
 * What a decider returns: the handler adds the metadata (actor, correlation, time) before
 * appending, so deciders stay pure.
 */
export type WithoutMetadata<E extends AnyEvent> = E extends unknown ? Omit<E, "metadata"> : never;

const byType: ReadonlyMap<string, EventDefinition> = new Map(CATALOGUE.map((d) => [d.type, d]));

export const definitionOf = (type: string): EventDefinition | undefined => byType.get(type);

const typesOf = (defs: ReadonlyArray<EventDefinition>): ReadonlySet<string> =>
  new Set(defs.map((d) => d.type));
const orderTypes = typesOf(ORDER_EVENTS);
const staffTypes = typesOf(STAFF_EVENTS);
const mailTypes = typesOf(MAIL_EVENTS);

export const isOrderEvent = (event: AnyEvent): event is OrderEvent => orderTypes.has(event.type);
export const isStaffEvent = (event: AnyEvent): event is StaffEvent => staffTypes.has(event.type);
/** An event of a mail's stream, which names its mail (and its order) in `data`. */
export const isMailEvent = (event: AnyEvent): event is MailEvent => mailTypes.has(event.type);
