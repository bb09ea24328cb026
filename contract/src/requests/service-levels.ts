import * as Schema from "effect/Schema";
import { allowanceRule, MAX_ALLOWED_MINUTES } from "@etd/events";

/*
 * The service-level policy form (issue 27, ADR 0036): three allowances in whole minutes. The
 * bounds and the sentence are the decider's (allowanceRule), so the edge and the decider refuse
 * with the same words; the decider still checks them, and alone decides who may set them.
 */

const allowance = (kind: "standard" | "priority" | "future") =>
  // A value that is not a number at all is told the same rule, not the schema library's words.
  Schema.Number.annotate({ message: allowanceRule(kind) }).check(
    Schema.isFinite(),
    Schema.makeFilter((minutes: number) => (Number.isInteger(minutes) && minutes >= 1 && minutes <= MAX_ALLOWED_MINUTES) || allowanceRule(kind), {
      toJsonSchema: () => ({ type: "integer", minimum: 1, maximum: MAX_ALLOWED_MINUTES }),
    }),
  ).pipe(Schema.annotateKey({ messageMissingKey: allowanceRule(kind) }));

/** `PUT /admin/service-levels`: the minutes allowed per kind of order. */
export const SetServiceLevelsRequest = Schema.Struct({
  standard: allowance("standard"),
  priority: allowance("priority"),
  future: allowance("future"),
});
