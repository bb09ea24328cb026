/*
 * Text that cannot be stored or searched (issue 9 item 11): PostgreSQL refuses NUL (U+0000) in
 * text and jsonb, and a lone UTF-16 surrogate is not Unicode at all (it cannot be encoded as
 * UTF-8). Either one reaching a handler ended as a 500 deep inside a query or an append. The
 * endpoint layer checks every string of a request once, before any handler runs, and answers 400.
 */

export const UNUSABLE_TEXT = "Text must not contain NUL characters or invalid Unicode.";

/**
 * What a JSON Schema can state of the rule, on every string of a request (openapi.ts): no NUL,
 * as a pattern (matching a whole string with none) or the one character a string must not hold.
 * A lone surrogate is beyond it (JSON Schema's strings are sequences of code points).
 */
export const USABLE_TEXT_PATTERN = "^[^\\u0000]*$";
export const NUL = "\\u0000";

/** A string the database can hold: no NUL, no lone surrogate. */
export const isUsableText = (text: string): boolean => !text.includes("\u0000") && text.isWellFormed();

/**
 * True when every string in these values, at any depth, keys included, is usable. Walks with
 * its own stack rather than recursion: a request's nesting depth is the client's choice.
 */
export const holdsOnlyUsableText = (...values: unknown[]): boolean => {
  const pending: unknown[] = [...values];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (!isUsableText(value)) return false;
    } else if (Array.isArray(value)) {
      // One by one: spreading a client's array of 100,000s of items would overflow the call.
      for (const item of value as unknown[]) pending.push(item);
    } else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (!isUsableText(key)) return false;
        pending.push(inner);
      }
    }
  }
  return true;
};
