import type { OperationEvent, WithoutMetadata } from "@etd/events";
import type { Decider, Decision } from "../shared/decider.ts";
import { refuse } from "../shared/refusal.ts";
import type { OperationCommand } from "./commands.ts";

/*
 * The operator's actions (issue 28, ADR 0039): only an Admin takes them. A rebuild asked for while
 * one is under way is refused (it would start nothing: the build catching up is the one asked for);
 * so is a retry of a reactor that is not waiting to retry (it would change nothing but the log, and
 * each one would restart a failing reactor's back-off from its first step).
 * The stream keeps no state the rules read: what a request needs to know comes in the command.
 */

export type OperationDecision = Decision<WithoutMetadata<OperationEvent>>;

export const decideOperations = (command: OperationCommand): OperationDecision => {
  if (command.actor.role !== "Admin") return refuse("forbidden", "Only an Admin can run the operator's actions.");
  switch (command.type) {
    case "RequestRebuild":
      if (command.building) return refuse("conflict", `The ${command.projection} read model is already being rebuilt.`);
      return [{ type: "ProjectionRebuildRequested", data: { projection: command.projection, version: command.version } }];
    case "RequestReactorRetry":
      if (!command.waiting) return refuse("conflict", `The ${command.reactor} reactor is not waiting to retry.`);
      return [{ type: "ReactorRetryRequested", data: { reactor: command.reactor } }];
  }
};

export const operationsDecider: Decider<OperationCommand, null, OperationEvent> = {
  initialState: null,
  evolve: (state) => state,
  decide: decideOperations,
};
