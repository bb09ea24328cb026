import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import * as SchemaGetter from "effect/SchemaGetter";
import * as SchemaTransformation from "effect/SchemaTransformation";
import { Count, IsoDate, IsoDateTime, YesNo } from "@etd/events";
import { DAY_PATTERN, matches, padded } from "@etd/events/checks";

/*
 * The lenient value forms the customer-facing site may send, and how each becomes the strict
 * form the event catalogue stores. Forms sites really send (PHP/MySQL-backed forms: "yes",
 * "1", numbers as strings, null or "" for an unanswered question) are accepted and normalised
 * here, once, so nothing downstream has to guess.
 *
 * A wire value is a union of accepted forms carrying ONE message, so a bad value is reported as
 * "what this field accepts", not as a list of every form it failed to be.
 */

export const REQUIRED_MESSAGE = "This field is required.";

/** A schema with no services: what every wire form and stored form here is. */
type Plain = Schema.Codec<unknown, unknown, never, never>;

export interface WireValue<Forms extends ReadonlyArray<Plain>, To extends Plain> {
  /** The forms accepted on the wire; null and "" are added by `optional`/`withDefault`. */
  readonly forms: Forms;
  /** Shown for any value that matches none of the forms. */
  readonly message: string;
  /** The stored form, as the event catalogue declares it. */
  readonly to: To;
  readonly normalise: (raw: Forms[number]["Type"]) => To["Encoded"];
  readonly description?: string | undefined;
}

const wireValue = <const Forms extends ReadonlyArray<Plain>, To extends Plain>(
  value: WireValue<Forms, To>,
): WireValue<Forms, To> => value;

const acceptedForms = <const Forms extends ReadonlyArray<Plain>>(
  value: { readonly message: string; readonly description?: string | undefined },
  forms: Forms,
) =>
  Schema.Union(forms).annotate({
    message: value.message,
    ...(value.description === undefined ? {} : { description: value.description }),
  });

// Normalised values are wire values too (the accepted forms include them), so encoding is the
// identity. Nothing encodes a request today; a Schema simply has both directions.
const identity = <A, B>(value: A): B => value as unknown as B;

/** A key that must be present, with one of the value's forms. */
export const required = <const Forms extends ReadonlyArray<Plain>, To extends Plain>(
  value: WireValue<Forms, To>,
) =>
  acceptedForms(value, value.forms).pipe(
    Schema.decodeTo(value.to, {
      decode: SchemaGetter.transform(value.normalise),
      encode: SchemaGetter.transform(identity),
    }),
  );

const isBlank = (raw: unknown): boolean =>
  raw === null || (typeof raw === "string" && raw.trim() === "");

const blankForms = [Schema.Null, Schema.Literal("")] as const;

/** A key that may be absent, null or blank ("not answered"); any of those leaves it out. */
export const optional = <const Forms extends ReadonlyArray<Plain>, To extends Plain>(
  value: WireValue<Forms, To>,
) =>
  Schema.optionalKey(acceptedForms(value, [...value.forms, ...blankForms])).pipe(
    Schema.decodeTo(
      Schema.optionalKey(value.to),
      SchemaTransformation.transformOptional({
        decode: (raw) =>
          Option.flatMap(raw, (r) => {
            if (isBlank(r)) return Option.none();
            const normalised: To["Encoded"] = value.normalise(r);
            // Whitespace-only text trims to "": not answered either.
            return normalised === "" ? Option.none() : Option.some(normalised);
          }),
        encode: identity,
      }),
    ),
  );

/** Like `optional`, but an unanswered key decodes to `fallback` (counts default to 0, 001 §2). */
export const withDefault = <const Forms extends ReadonlyArray<Plain>, To extends Plain>(
  value: WireValue<Forms, To>,
  fallback: To["Encoded"],
) =>
  Schema.optionalKey(acceptedForms(value, [...value.forms, ...blankForms])).pipe(
    Schema.decodeTo(
      value.to,
      SchemaTransformation.transformOptional({
        decode: (raw) =>
          Option.some(
            Option.match(raw, {
              onNone: () => fallback,
              onSome: (r) => (isBlank(r) ? fallback : value.normalise(r)),
            }),
          ),
        encode: identity,
      }),
    ),
  );

/** A list field that may be absent or null; its items report their own errors. */
export const optionalList = <S extends Plain>(list: S) =>
  Schema.optionalKey(Schema.NullOr(list).annotate({ expected: "a list" })).pipe(
    Schema.decodeTo(
      Schema.optionalKey(Schema.toType(list)),
      SchemaTransformation.transformOptional<S["Type"], S["Type"] | null>({
        decode: (raw) => Option.filter(raw, (r): r is S["Type"] => r !== null),
        encode: identity,
      }),
    ),
  );

// ---------------------------------------------------------------------------------------------
// The value kinds

const MAX_TEXT = 1000;

const BoundedText = Schema.String.check(
  Schema.isMaxLength(MAX_TEXT, { message: `Must be at most ${String(MAX_TEXT)} characters.` }),
  // PostgreSQL's text and jsonb cannot hold U+0000: refused here rather than failing as a 500.
  Schema.makeFilter((s: string) => !s.includes("\u0000") || "Must not contain the NUL character."),
);

/** Free text; numbers are taken as their digits (phone codes, house numbers, pincodes). */
export const text = wireValue({
  forms: [Schema.String, Schema.Finite],
  message: "Must be text.",
  to: BoundedText,
  normalise: (raw) => String(raw).trim(),
});

/** Free text that must say something (names, list item descriptions). */
export const requiredText = wireValue({
  forms: [Schema.String, Schema.Finite],
  message: "Must be text.",
  to: BoundedText.check(Schema.isNonEmpty({ message: REQUIRED_MESSAGE })),
  normalise: (raw) => String(raw).trim(),
});

export const YES_NO_FORMS = ["Yes", "No", "yes", "no", "1", "0", 1, 0, true, false] as const;
const isYes = (raw: (typeof YES_NO_FORMS)[number]) =>
  raw === "Yes" || raw === "yes" || raw === "1" || raw === 1 || raw === true;

const yesNoForms = [Schema.Literals(YES_NO_FORMS)];
const yesNoMessage = 'Must be "Yes" or "No" (yes/no, 1/0 and true/false are accepted too).';

/** A yes/no answer, stored as "Yes" or "No". */
export const yesNo = wireValue({
  forms: yesNoForms,
  message: yesNoMessage,
  to: YesNo,
  normalise: (raw): YesNo => (isYes(raw) ? "Yes" : "No"),
  description: 'A yes/no answer; "yes", 1/"1", true and their negatives are normalised.',
});

/** A yes/no answer the spec stores as 1 or 0 (overseas_filipino_worker, 001 §3). */
export const yesNoFlag = wireValue({
  forms: yesNoForms,
  message: yesNoMessage,
  to: Schema.Literals([0, 1]),
  normalise: (raw): 0 | 1 => (isYes(raw) ? 1 : 0),
});

const MAX_COUNT = 999_999_999;

/** A whole number of 0 or more, as a number or a numeric string. */
export const count = wireValue({
  forms: [
    Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_COUNT })),
    Schema.String.check(matches(padded("[0-9]{1,9}"), "Must be a whole number of 0 or more.")),
  ],
  message: "Must be a whole number of 0 or more.",
  to: Count,
  normalise: (raw) => Number(raw),
});

const AMOUNT_MESSAGE = "Must be an amount of 0 or more with at most two decimals, like 45.00.";

/** Money: stored as a decimal string with two places ("45.00"), as the catalogue keeps it. */
export const amount = wireValue({
  forms: [
    // The document states the range; "two decimals" of a binary number is beyond JSON Schema's multipleOf.
    Schema.Finite.check(
      Schema.makeFilter((n: number) => n >= 0 && n < 1e12 && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
        toJsonSchema: () => ({ minimum: 0, exclusiveMaximum: 1e12 }),
      }),
    ),
    Schema.String.check(matches(padded("[0-9]{1,12}(?:\\.[0-9]{1,2})?"), AMOUNT_MESSAGE)),
  ],
  message: AMOUNT_MESSAGE,
  to: Schema.String,
  normalise: (raw) => Number(raw).toFixed(2),
});

const CURRENCY_MESSAGE = 'Must be a three-letter ISO 4217 currency code, like "USD".';

/** An ISO 4217 currency code, any case on the wire ("usd"), stored in capitals ("USD"). */
export const currency = wireValue({
  forms: [Schema.String.check(matches(padded("[A-Za-z]{3}"), CURRENCY_MESSAGE))],
  message: CURRENCY_MESSAGE,
  to: Schema.String,
  normalise: (raw) => raw.trim().toUpperCase(),
});

/** True when `s` is a real calendar day written YYYY-MM-DD. */
export function isCalendarDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const date = new Date(`${s}T00:00:00Z`);
  // Date rolls 2025-02-30 over to March; a real day survives the round trip.
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === s;
}

/** A calendar day, YYYY-MM-DD (birth, passport issue and travel dates, the processing date). */
export const day = wireValue({
  forms: [
    Schema.String.check(
      // The document states the shape; that the day exists (no 30 February) is beyond a pattern.
      Schema.makeFilter((s: string) => isCalendarDay(s.trim()), { toJsonSchema: () => ({ pattern: padded(DAY_PATTERN).source }) }),
    ),
  ],
  message: "Must be a real date written YYYY-MM-DD, like 2025-03-14.",
  to: IsoDate,
  normalise: (raw) => raw.trim(),
});

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** TIMESTAMP's shape, spelled for the document (explicit classes), the day's months and days in range. */
const TIMESTAMP_SHAPE = `${DAY_PATTERN}T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\\.[0-9]{1,9})?)?(?:Z|[+-][0-9]{2}:[0-9]{2})`;

function isTimestamp(s: string): boolean {
  const match = TIMESTAMP.exec(s);
  return match !== null && isCalendarDay(match[1] ?? "") && !Number.isNaN(Date.parse(s));
}

/**
 * An instant with its time zone (Z or an offset), stored in UTC like toISOString() writes it. A
 * time without a zone is refused: the same digits are a different instant in Manila and New York.
 */
export const timestamp = wireValue({
  forms: [
    Schema.String.check(
      // The document states the shape; the day's and the time's ranges are Date.parse's.
      Schema.makeFilter((s: string) => isTimestamp(s.trim()), { toJsonSchema: () => ({ pattern: padded(TIMESTAMP_SHAPE).source }) }),
    ),
  ],
  message:
    "Must be a date and time with a time zone, like 2025-03-14T07:59:48Z or 2025-03-14T15:59:48+08:00.",
  to: IsoDateTime,
  normalise: (raw) => new Date(raw.trim()).toISOString(),
});

/**
 * One of a few values, accepted in each of the spellings given (spelling → value). An unknown
 * spelling never gets as far as `normalise`: the accepted forms are exactly the spellings.
 */
export const choice = <const Values extends readonly [string, ...string[]]>(
  values: Values,
  spellings: { readonly [spelling: string]: Values[number] },
  description?: string,
) => {
  const accepted = Object.keys(spellings);
  return wireValue({
    forms: [Schema.Literals(accepted)],
    message: `Must be ${accepted.map((s) => JSON.stringify(s)).join(", ").replace(/, ([^,]*)$/, " or $1")}.`,
    to: Schema.Literals(values),
    normalise: (raw: string): Values[number] => spellings[raw] ?? values[0],
    ...(description === undefined ? {} : { description }),
  });
};
