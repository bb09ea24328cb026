import { EmailAddress, NonEmptyText } from "@etd/events";
import { Schema } from "effect";

/*
 * The few input checks a decider repeats so that every event it emits satisfies the catalogue's
 * schemas. The HTTP edge validates requests first with the form's own messages; these are the
 * last line, for callers that skipped it (scripts, reactors, the demo generator).
 */

const isCatalogueAddress = Schema.is(EmailAddress);

/**
 * A bare address a mail can go to. Stricter than the catalogue's shape (which stored events must
 * keep passing): a comma, angle brackets, quotes, a semicolon or a colon would let one "address"
 * name other recipients or a display name once it reaches a mail header or a provider's list.
 */
export const isEmailAddress = (value: string): boolean => isCatalogueAddress(value) && !/[,<>"';:()[\]\\]/.test(value);

/** NonEmptyText holds no surrounding blanks; undefined when nothing is left after trimming. */
export const trimmedText = (value: string): string | undefined => {
  const trimmed = value.trim();
  return Schema.is(NonEmptyText)(trimmed) ? trimmed : undefined;
};
