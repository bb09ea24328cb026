import * as Schema from "effect/Schema";
import { defineEvent } from "../shared/event-definition.ts";

/*
 * Events of the single `service-levels` stream (issue 27, ADR 0036): the policy that says how long
 * an order may take from payment to its document. One stream, because a policy's version number
 * runs 1, 2, 3 … across all of them.
 */

/** A year, in minutes: the most time a policy may allow. */
export const MAX_ALLOWED_MINUTES = 525_600;

/** The policy's allowances by name, as staff read them. */
export const ALLOWANCE_LABELS = { standard: "Standard", priority: "Priority", future: "Future orders" } as const;

/**
 * The one sentence for an allowance out of bounds: the decider refuses with it, and the request
 * schema the API decodes with says the same, so a client hears one rule whichever checks first.
 */
export const allowanceRule = (kind: keyof typeof ALLOWANCE_LABELS): string =>
  `${ALLOWANCE_LABELS[kind]}: the time allowed is a whole number of minutes from 1 to ${MAX_ALLOWED_MINUTES} (a year).`;

/** Minutes allowed, at least one and at most a year. */
const AllowedMinutes = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_ALLOWED_MINUTES }));

/**
 * An Admin set the policy. It applies to orders paid from this moment on; an order paid earlier
 * keeps the version in force when it was paid. `future` counts from the start (00:00 UTC) of a
 * future order's processing date instead of from its payment.
 */
export const ServiceLevelPolicySet = defineEvent(
  "ServiceLevelPolicySet",
  1,
  Schema.Struct({
    version: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
    allowedMinutes: Schema.Struct({ standard: AllowedMinutes, priority: AllowedMinutes, future: AllowedMinutes }),
  }),
);
export type ServiceLevelPolicySet = typeof ServiceLevelPolicySet.schema.Type;

/** Every event type the service-levels stream may hold (the catalogue reads this list). */
export const SERVICE_LEVEL_EVENTS = [ServiceLevelPolicySet] as const;
