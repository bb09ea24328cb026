import { allowanceRule, MAX_ALLOWED_MINUTES, type ServiceLevelEvent, type WithoutMetadata } from "@etd/events";
import type { Decider, Decision } from "../shared/decider.ts";
import { refuse } from "../shared/refusal.ts";
import type { ServiceLevelCommand } from "./commands.ts";
import { evolveServiceLevels, initialServiceLevelState, type ServiceLevelState } from "./service-level-state.ts";

/*
 * Service-level rules (issue 27, ADR 0036): only an Admin sets the policy; each allowance is a
 * whole number of minutes from 1 to a year; every change is a new version, so an order can say
 * which one it runs under. Saving the policy unchanged is a success that changes nothing.
 */

export type ServiceLevelDecision = Decision<WithoutMetadata<ServiceLevelEvent>>;

const KINDS = ["standard", "priority", "future"] as const;

export const decideServiceLevels = (command: ServiceLevelCommand, state: ServiceLevelState): ServiceLevelDecision => {
  if (!("system" in command.actor) && command.actor.role !== "Admin") return refuse("forbidden", "Only an Admin can set the service levels.");
  for (const kind of KINDS) {
    const minutes = command.allowedMinutes[kind];
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_ALLOWED_MINUTES) {
      return refuse("invalid", allowanceRule(kind));
    }
  }
  const allowedMinutes = { standard: command.allowedMinutes.standard, priority: command.allowedMinutes.priority, future: command.allowedMinutes.future };
  if (KINDS.every((kind) => allowedMinutes[kind] === state.allowedMinutes[kind]) && state.version > 0) return [];
  return [{ type: "ServiceLevelPolicySet", data: { version: state.version + 1, allowedMinutes } }];
};

export const serviceLevelDecider: Decider<ServiceLevelCommand, ServiceLevelState, ServiceLevelEvent> = {
  initialState: initialServiceLevelState,
  evolve: evolveServiceLevels,
  decide: decideServiceLevels,
};
