import type { ExpectedVersion, NewEvent } from "@etd/event-store";
import { encodeEvent, type AnyEvent, type EventMetadata } from "@etd/events";
import { isRefusal, type Decider } from "@etd/write";
import type { Seeded } from "./seeded.ts";

/*
 * One stream's events as the workload plans them: every command goes through the real decider,
 * its events get metadata and are folded with the decider's own `evolve`, so what the workload
 * appends is exactly what the write side would have appended for that sequence of commands.
 */

/** Events still to plan across the whole log; the last order is cut short to hit the target. */
export interface Budget {
  remaining: number;
}

/** One append of a stream's events; `forgetFirst` destroys the stream's key before it (permanent delete). */
export interface PlannedAppend {
  readonly expectedVersion: ExpectedVersion;
  readonly events: readonly NewEvent[];
  readonly forgetFirst: boolean;
}

export interface StreamDraft<Command, State> {
  readonly streamId: string;
  readonly state: State;
  /**
   * Decides the command on the current state and keeps its events. False, and the draft stops
   * taking commands, when the events would overrun the budget. A refusal is a bug of the
   * workload (it asked for something the rules forbid), so it throws.
   */
  step(command: Command, metadata: EventMetadata): boolean;
  /** The events kept since the last `take`, as one append at the version they follow. */
  take(options?: { readonly forgetFirst?: boolean }): PlannedAppend | undefined;
}

export const streamDraft = <Command extends { readonly type: string }, State, E extends AnyEvent>(
  decider: Decider<Command, State, E>,
  streamId: string,
  budget: Budget,
  random: Seeded,
): StreamDraft<Command, State> => {
  let state = decider.initialState;
  let version = 0n;
  let pending: NewEvent[] = [];
  let stopped = false;
  return {
    streamId,
    get state() {
      return state;
    },
    step(command, metadata) {
      if (stopped) return false;
      const decision = decider.decide(command, state);
      if (isRefusal(decision)) throw new Error(`workload bug: ${streamId} refused ${command.type}: ${decision.message}`);
      if (decision.length > budget.remaining) {
        stopped = true;
        return false;
      }
      for (const planned of decision) {
        // A decider's event plus metadata is a whole catalogue event of its stream.
        const event = { ...planned, metadata } as unknown as E;
        state = decider.evolve(state, event);
        pending.push({ eventId: random.uuid(), ...encodeEvent(event) });
      }
      budget.remaining -= decision.length;
      return true;
    },
    take(options = {}) {
      if (pending.length === 0) return undefined;
      const append: PlannedAppend = {
        expectedVersion: version === 0n ? "no_stream" : version,
        events: pending,
        forgetFirst: options.forgetFirst ?? false,
      };
      version += BigInt(pending.length);
      pending = [];
      return append;
    },
  };
};
