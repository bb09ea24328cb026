import type { AnyEvent, WithoutMetadata } from "@etd/events";
import type { DecidedRefusal } from "./refusal.ts";

/**
 * What `decide` returns: the new events (without metadata, which the handler adds), or why not.
 * An empty list is a success that changes nothing (an idempotent repeat). A decider answers
 * "changed" only for a precondition carried by the command (refusal.ts); a stale version is the
 * handler's, before anything is decided.
 */
export type Decision<E> = ReadonlyArray<E> | DecidedRefusal;

/**
 * One aggregate's rules (Emmett style). Pure: no I/O, no clock, no randomness; everything a
 * rule needs comes in the command or the state folded from the stream.
 */
export interface Decider<Command, State, Event extends AnyEvent> {
  readonly initialState: State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Decision<WithoutMetadata<Event>>;
}

/** The state after a stream's events, as `decide` sees it. */
export const foldEvents = <Command, State, Event extends AnyEvent>(
  decider: Decider<Command, State, Event>,
  events: Iterable<Event>,
): State => {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, event);
  return state;
};
