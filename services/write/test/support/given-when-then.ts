import { type AnyEvent, encodeEvent, type WithoutMetadata } from "@etd/events";
import { expect } from "vitest";
import { type DecidedRefusal, type Decider, foldEvents, isRefusal, refuse } from "../../src/index.ts";
import { staffMetadata } from "./metadata.ts";

/**
 * Decider specifications (Emmett style): `given(history).when(command).then(newEvents)` or
 * `.thenRefuses(reason, message)`. `then` also checks that every new event, once the handler
 * adds metadata, is one the catalogue accepts (`encodeEvent` refuses unknown or missing keys).
 */
export const specFor = <Command, State, Event extends AnyEvent>(
  decider: Decider<Command, State, Event>,
) => ({
  given: (history: ReadonlyArray<Event>) => ({
    when: (command: Command) => {
      const decision = decider.decide(command, foldEvents(decider, history));
      return {
        then: (expected: ReadonlyArray<WithoutMetadata<Event>>): void => {
          if (isRefusal(decision)) expect.fail(`expected events but was refused: ${decision.message}`);
          expect(decision).toEqual(expected);
          // Throws EventEncodeError naming the field when an event strays from its schema.
          for (const event of decision) encodeEvent({ ...event, metadata: staffMetadata() });
        },
        thenRefuses: (reason: DecidedRefusal["reason"], message: string): void => {
          expect(decision).toEqual(refuse(reason, message));
        },
      };
    },
  }),
});
