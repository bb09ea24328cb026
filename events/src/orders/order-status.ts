import * as Schema from "effect/Schema";
import { ORDER_STATUSES, PROCESSING_MODES } from "../vocabulary.ts";

/** An order's process status (DESIGN §4); the list and its labels are in `vocabulary.ts`. */
export const OrderStatus = Schema.Literals(ORDER_STATUSES);
export type OrderStatus = typeof OrderStatus.Type;

export { ORDER_STATUS_LABELS, statusLabel } from "../vocabulary.ts";

/** What the customer paid for; decides whether a new order starts in `New` or `Priority`. */
export const ProcessingMode = Schema.Literals(PROCESSING_MODES);
export type ProcessingMode = typeof ProcessingMode.Type;

/** The statuses an unassigned order waits in, one per processing mode. */
export const IntakeStatus = Schema.Literals(["New", "Priority"]);
export type IntakeStatus = typeof IntakeStatus.Type;

/** The mail adapters staff choose between (000 §9, CROSS-4); "AWS" is the default. */
export const MailProvider = Schema.Literals(["AWS", "Sendgrid"]);
export type MailProvider = typeof MailProvider.Type;
