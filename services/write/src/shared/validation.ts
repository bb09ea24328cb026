import { NonEmptyText } from "@etd/events";
import * as Schema from "effect/Schema";

/*
 * The few input checks a decider repeats so that every event it emits satisfies the catalogue's
 * schemas. The HTTP edge validates requests first with the form's own messages; these are the
 * last line, for callers that skipped it (scripts, reactors, the demo generator).
 */

/**
 * A bare address a mail can go to: the one rule of forms, requests, intake and mail. Stricter than
 * the catalogue's shape (which stored events must keep passing), so what it admits the catalogue
 * admits too.
 */
export { isEmailAddress } from "@etd/events/email-address";

/** NonEmptyText holds no surrounding blanks; undefined when nothing is left after trimming. */
export const trimmedText = (value: string): string | undefined => {
  const trimmed = value.trim();
  return Schema.is(NonEmptyText)(trimmed) ? trimmed : undefined;
};
