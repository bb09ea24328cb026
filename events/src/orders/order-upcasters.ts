import { Schema } from "effect";
import { NonEmptyText } from "../shared/primitives.ts";
import { defineUpcaster, type Upcaster } from "../shared/upcaster.ts";
import { OrderAssigned, RemarkAdded } from "./order-events.ts";

/**
 * Event types renamed after events were stored under the old name (stored type → current type).
 * The store keeps what was written; every reader maps the old name on read, before upcasting,
 * so the version chain of the new name continues the old one's. New appends write the new name.
 * OrderClaimed became OrderAssigned when the code took the design card's word (ADR 0013).
 */
export const ORDER_RENAMES: ReadonlyMap<string, string> = new Map([["OrderClaimed", OrderAssigned.type]]);

/**
 * RemarkAdded version 1, as the first writers stored it: the add-new-remark payload of the
 * spec, flags as 'Y' when ticked and 'N', empty or absent when not. Frozen: never edit it.
 */
const flagV1 = Schema.optionalKey(Schema.Literals(["Y", "N", ""]));
export const RemarkAddedV1 = Schema.Struct({
  orderId: Schema.String,
  remark: Schema.String,
  remarkerName: Schema.String,
  whatsapp: flagV1,
  telephone: flagV1,
  statusRefund: flagV1,
  voided: flagV1,
  chargeBack: flagV1,
  reportError: flagV1,
});

const ticked = (flag: string | undefined): boolean => flag === "Y";

/**
 * RemarkAdded version 2: booleans for flags, the text in the clear beside them. Frozen: never
 * edit it. Those stored events still hold the text in the log itself (nothing can seal it after
 * the fact), so readers of an erased order must hide it themselves: see `eraseLegacyRemarks`.
 */
export const RemarkAddedV2 = Schema.Struct({
  orderId: Schema.String,
  remark: NonEmptyText,
  remarkerName: NonEmptyText,
  whatsapp: Schema.Boolean,
  telephone: Schema.Boolean,
  statusRefund: Schema.Boolean,
  voided: Schema.Boolean,
  chargeBack: Schema.Boolean,
  reportError: Schema.Boolean,
});

export const ORDER_UPCASTERS: ReadonlyArray<Upcaster> = [
  defineUpcaster({
    type: RemarkAdded.type,
    fromVersion: 1,
    from: RemarkAddedV1,
    to: RemarkAddedV2,
    up: (v1) => ({
      orderId: v1.orderId,
      // The old form did not trim; version 2 refuses surrounding blanks.
      remark: v1.remark.trim(),
      remarkerName: v1.remarkerName.trim(),
      whatsapp: ticked(v1.whatsapp),
      telephone: ticked(v1.telephone),
      statusRefund: ticked(v1.statusRefund),
      voided: ticked(v1.voided),
      chargeBack: ticked(v1.chargeBack),
      reportError: ticked(v1.reportError),
    }),
  }),
  defineUpcaster({
    type: RemarkAdded.type,
    fromVersion: 2,
    from: RemarkAddedV2,
    to: RemarkAdded.data,
    // Moved, not sealed: the write side seals on append only, so this text stays readable until a
    // reader that knows the order was erased drops it (eraseLegacyRemarks).
    up: ({ remark, ...rest }) => ({ ...rest, personal: { remark } }),
  }),
];
