import * as Schema from "effect/Schema";
import { defineEvent } from "../shared/event-definition.ts";
import { GatewayId } from "../shared/ids.ts";
import { LandingDomain } from "../shared/landing-domain.ts";
import { NonEmptyText } from "../shared/primitives.ts";

/*
 * Events of the single `gateways` stream. One stream for all gateways, because the rule "exactly
 * one active gateway per domain" spans them and the decider needs them all in one state.
 */

/** A payment gateway became available to choose from (setup or demo data). */
export const GatewayRegistered = defineEvent(
  "GatewayRegistered",
  1,
  Schema.Struct({ gatewayId: GatewayId, gatewayName: NonEmptyText }),
);
export type GatewayRegistered = typeof GatewayRegistered.schema.Type;

/**
 * An Admin or Manager made a gateway the active one for a domain (Gateway Setting); the one
 * active before, if any, is no longer active there.
 */
export const GatewaySelected = defineEvent(
  "GatewaySelected",
  1,
  Schema.Struct({
    gatewayId: GatewayId,
    domain: LandingDomain,
    previousGatewayId: Schema.optionalKey(GatewayId),
  }),
);
export type GatewaySelected = typeof GatewaySelected.schema.Type;

/** Every event type the gateway settings stream may hold (the catalogue reads this list). */
export const GATEWAY_EVENTS = [GatewayRegistered, GatewaySelected] as const;
