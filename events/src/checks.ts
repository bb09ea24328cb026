import * as Schema from "effect/Schema";

/*
 * Checks that a decoder runs and the OpenAPI document states (issue 26, ADR 0031): each rule is
 * written once, as a pattern or a bound, and both the filter and its JSON Schema come from it. The
 * API's request schemas (@etd/contract/requests) and intake's order schema (@etd/write) use them.
 *
 * Patterns have no flags and spell their classes out (no \d, \s, \w, no `i`), so that JavaScript
 * (the decoder) and the engines a client's validator or schemathesis uses (Python's, Rust's) read
 * one language. Each is anchored or one character long, and unambiguous: every repetition ends at
 * a character it cannot take, so it runs in linear time.
 */

/**
 * What String.prototype.trim removes and JavaScript's \s matches (ECMA-262's WhiteSpace and
 * LineTerminator), as the inside of a character class.
 */
const BLANK = "\\t-\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";

/** A value that trims to something: it holds a character that is not blank. */
export const NOT_BLANK = new RegExp(`[^${BLANK}]`);

/** Empty (a missing value's own message says so), or not only blanks: a password. */
export const EMPTY_OR_NOT_BLANK = new RegExp(`^$|[^${BLANK}]`);

/**
 * `core` with any blanks around it, as a trimming decoder reads it. `core` must start and end with
 * characters that are not blank, so that the blanks and the core never compete for a character.
 */
export const padded = (core: string): RegExp => new RegExp(`^[${BLANK}]*${core}[${BLANK}]*$`);

/** Blank (a missing value's own message says so), or `core` with any blanks around it. */
export const blankOr = (core: string): RegExp => new RegExp(`^[${BLANK}]*(?:${core}[${BLANK}]*)?$`);

/**
 * A calendar day's shape, YYYY-MM-DD with months 01-12 and days 01-31. That the day exists (no
 * 30 February) is beyond a pattern: the decoders check the calendar too.
 */
export const DAY_PATTERN = "[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])";

/** The letters of `word` in either case, for a pattern that cannot carry the `i` flag. */
export const anyCase = (word: string): string =>
  [...word].map((letter) => (/[a-z]/i.test(letter) ? `[${letter.toUpperCase()}${letter.toLowerCase()}]` : letter)).join("");

/** `pattern` must match, else `message`; the document states the same pattern. */
export const matches = (pattern: RegExp, message: string) => {
  if (pattern.flags !== "") throw new Error(`a stated pattern takes no flags: /${pattern.source}/${pattern.flags}`);
  return Schema.makeFilter((s: string) => pattern.test(s) || message, { toJsonSchema: () => ({ pattern: pattern.source }) });
};

/**
 * For a field that takes a string or an integer (an id the existing client sends either way): the
 * string must match `pattern`, the integer lie within the bounds. JSON Schema's `pattern` applies to
 * strings only and `minimum`/`maximum` to numbers only, so one fragment states both.
 */
export const stringOrInteger = (pattern: RegExp, bounds: { readonly minimum?: number; readonly maximum?: number }, message: string) => {
  if (pattern.flags !== "") throw new Error(`a stated pattern takes no flags: /${pattern.source}/${pattern.flags}`);
  const { minimum = -Infinity, maximum = Infinity } = bounds;
  return Schema.makeFilter(
    (value: string | number) => (typeof value === "number" ? value >= minimum && value <= maximum : pattern.test(value)) || message,
    { toJsonSchema: () => ({ pattern: pattern.source, ...bounds }) },
  );
};

/** One of `values`, else `message`; the document states them as an `enum`. */
export const oneOf = <T extends string | number>(values: readonly T[], message: string) =>
  Schema.makeFilter((value: T) => values.includes(value) || message, { toJsonSchema: () => ({ enum: [...values] }) });

/**
 * At most `max` characters, counted as JSON Schema's `maxLength` counts them: code points. Without
 * a message, the schema library's own wording for a length. A value too long ends its field's
 * checks here (`abort`), though requests decode with `errors: "all"`: the checks after the bound
 * never walk a value of any length, and the bound itself counts only up to max + 1. The checks
 * before it still run, so the first message (the one a client sees) stays theirs.
 */
export const maxCharacters = (max: number, message = `Expected a value with a length of at most ${max}`) =>
  Schema.isMaxCodePoints(max, { message }).abort();

/** Empty, or at least `min` characters (code points); the document states it as "not 1 to min-1". */
export const emptyOrAtLeast = (min: number, message: string) =>
  Schema.makeFilter((s: string) => s.length === 0 || countCodePoints(s, min) >= min || message, {
    toJsonSchema: () => ({ not: { minLength: 1, maxLength: min - 1 } }),
  });

/** Code points of `s`, counted up to `limit` (a long value is not walked to its end). */
const countCodePoints = (s: string, limit: number): number => {
  let count = 0;
  for (const _ of s) if (++count >= limit) break;
  return count;
};
