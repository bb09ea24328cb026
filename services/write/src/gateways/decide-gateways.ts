import type { GatewayEvent, WithoutMetadata } from "@etd/events";
import type { Decider, Decision } from "../shared/decider.ts";
import { refuse } from "../shared/refusal.ts";
import { trimmedText } from "../shared/validation.ts";
import type { GatewayCommand } from "./commands.ts";
import {
  evolveGateways,
  findGateway,
  type GatewaysState,
  initialGatewaysState,
} from "./gateway-state.ts";

/*
 * Gateway rules (ADMIN-2, 000 §4): exactly one active gateway per domain. All gateways share one
 * stream so this decider sees them all at once.
 */

export type NewGatewayEvent = WithoutMetadata<GatewayEvent>;
export type GatewayDecision = Decision<NewGatewayEvent>;

export const decideGateways = (command: GatewayCommand, state: GatewaysState): GatewayDecision => {
  switch (command.type) {
    case "RegisterGateway": {
      const existing = findGateway(state, command.gatewayId);
      if (existing !== undefined) {
        return refuse("conflict", `Gateway ${existing.gatewayName} is already registered.`);
      }
      const gatewayName = trimmedText(command.gatewayName);
      if (gatewayName === undefined) return refuse("invalid", "A gateway needs a name.");
      return [{ type: "GatewayRegistered", data: { gatewayId: command.gatewayId, gatewayName } }];
    }
    case "SelectGateway": {
      if (findGateway(state, command.gatewayId) === undefined) {
        return refuse("not_found", "The selected gateway was not found.");
      }
      const previousGatewayId = state.active[command.domain];
      // Submitting the selector unchanged is a success that changes nothing.
      if (previousGatewayId === command.gatewayId) return [];
      return [
        {
          type: "GatewaySelected",
          data: {
            gatewayId: command.gatewayId,
            domain: command.domain,
            ...(previousGatewayId === undefined ? {} : { previousGatewayId }),
          },
        },
      ];
    }
  }
};

export const gatewayDecider: Decider<GatewayCommand, GatewaysState, GatewayEvent> = {
  initialState: initialGatewaysState,
  evolve: evolveGateways,
  decide: decideGateways,
};
