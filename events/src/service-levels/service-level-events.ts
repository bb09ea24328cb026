import * as Schema from "effect/Schema";
import { defineEvent } from "../shared/event-definition.ts";

/*
 * Events of the single `service-levels` stream (issue 27, ADR 0036): the policy that says how long
 * an order may take from payment to its document. One stream, because a policy's version number
 * runs 1, 2, 3 … across all of them.
 */

/** Minutes allowed, at least one and at most a year. */
const AllowedMinutes = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 525_600 }));

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
