import fc from "fast-check";

/*
 * Generators of bad request inputs for the R5 fuzz test: values of the wrong type, text that is
 * blank, overlong or hostile, order ids that are not order ids, bodies that are not JSON, and
 * multipart forms that are broken. Which of them is bad depends on the field, so the test pairs
 * them with each endpoint's schema; these only describe what a careless or hostile client sends.
 */

/** One request as the fuzzer sends it: raw bytes and headers, so nothing is tidied on the way. */
export interface FuzzBody {
  /** The class of bad input, for the counts and for failure messages. */
  readonly label: string;
  readonly contentType: string | undefined;
  readonly body: string | Uint8Array | undefined;
  /** The JSON value the body holds, when it holds one: what the server's decoding will see. */
  readonly json?: unknown;
  /** Multipart parts, when the body is a form: what the upload's safety check looks at. */
  readonly parts?: readonly FormPart[];
}

export interface FormPart {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly content: Uint8Array;
}

export const utf8 = new TextEncoder();

/** Text that looks like an attack or a mistake: injections, traversal, format strings, odd numbers. */
export const NASTY_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "'; DROP TABLE es_events; --",
  "\"; DELETE FROM staff_credentials; --",
  "1; SELECT pg_sleep(10)",
  "$1",
  "{\"$gt\": \"\"}",
  "<script>alert(1)</script>",
  "${process.exit(1)}",
  "{{constructor.constructor('return process')()}}",
  "`rm -rf /`",
  "../../../../etc/passwd",
  "..\\..\\..\\windows\\win.ini",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "/dev/zero",
  "file:///etc/passwd",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "0x7fffffff",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "%s%s%s%n",
  "\u202eevil\u202c",
  "\ufeffbom",
  "\ud800",
  "\udfff\ud800",
  "a\u0000b",
  "\u0000",
  "😀👨‍👩‍👧‍👦",
  "Ω≈ç√∫˜µ≤≥÷",
  "\u00a0\u2028\u2029",
];

export const blankString = fc.constantFrom("", " ", "   ", "\t", "\n", "\r\n", " \t \n ", "\u00a0", "\u3000");

/** Far past every field's limit (the longest, a remark, is 5,000 characters). */
export const overlongString = fc.oneof(
  fc.constantFrom("x".repeat(10_000), "9".repeat(10_000), "é".repeat(10_001), "a@b.co".repeat(2_000)),
  fc.string({ minLength: 1, maxLength: 4 }).map((s) => s.repeat(Math.ceil(10_001 / s.length))),
);

export const controlString = fc.string({
  minLength: 1,
  maxLength: 12,
  unit: fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)),
});

/** Any code points, lone surrogates included. */
export const unicodeString = fc.string({ maxLength: 40, unit: "binary" });

export const nastyString = fc.constantFrom(...NASTY_STRINGS);

/** Text containing U+0000, which PostgreSQL's text and jsonb cannot hold. */
export const nulString = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\u0000${b}`);

/** Anything but a string. */
export const notAString = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1.5, -0.000001, 1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Every kind of bad value; for a given field some of them may still be acceptable. */
export const anyBadValue: fc.Arbitrary<unknown> = fc.oneof(
  notAString,
  blankString,
  overlongString,
  controlString,
  unicodeString,
  nastyString,
  nulString,
);

/** Invalid for every required text field (`requiredText`): blank, overlong, NUL or not text. */
export const badRequiredText: fc.Arbitrary<unknown> = fc.oneof(notAString, blankString, overlongString, nulString);

/** Invalid for every e-mail field. */
export const badEmail: fc.Arbitrary<unknown> = fc.oneof(
  notAString,
  blankString,
  nulString,
  fc.constantFrom(
    "plainaddress",
    "a@b",
    "@example.com",
    "juan@",
    "juan@@example.com",
    "juan@.com",
    "juan example@example.com",
    "juan@exam ple.com",
    "ju\u0000an@example.com",
    "juan@exa\u0000mple.com",
    "ju\tan@example.com",
    "ju\u007fan@example.com",
    `${"x".repeat(250)}@example.com`,
    "' OR 1=1 --@",
  ),
  fc.string({ maxLength: 20 }).filter((s) => !s.includes("@")),
);

/** A throwaway address no account has. */
export const strangerEmail = fc.nat().map((n) => `fuzz-${n}@example.invalid`);

/** Valid order ids from 9,000,000,000 up: no order has them, so a command can at most be refused as not found. */
export const ghostOrderId: fc.Arbitrary<string | number> = fc.oneof(
  fc.nat({ max: 999_999_999 }).map((n) => String(9_000_000_000 + n)),
  fc.nat({ max: 999_999_999 }).map((n) => 9_000_000_000 + n),
  fc.nat({ max: 999_999_999 }).map((n) => `  ${9_000_000_000 + n} `),
);

/** Not an order id: too short, negative, fractional, too long, not digits, not a scalar. */
export const badOrderIdScalar: fc.Arbitrary<unknown> = fc.oneof(
  blankString,
  nastyString,
  nulString,
  overlongString,
  fc.constantFrom(
    "12345",
    12345,
    0,
    -9_000_000_001,
    "-9000000001",
    9_000_000_000.5,
    "9000000000.5",
    1e21,
    -0.5,
    "1".repeat(21),
    "9000000000abc",
    "0x2540BE400",
    "9e9",
    "9 000 000 000",
    "٩٠٠٠٠٠٠٠٠٠",
    "９０００００００００",
    "9000000001' OR '1'='1",
    "9000000001; DROP TABLE es_events",
    "../9000000001",
    "9000000001/../../etc",
    null,
    true,
    false,
    {},
    { $gt: "" },
  ),
  fc.integer({ min: -99_999, max: 99_999 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  fc.string({ maxLength: 5, unit: fc.constantFrom(..."0123456789") }),
);

/** Not a single order id, including arrays (bulk actions take lists; single-order forms do not). */
export const badOrderId: fc.Arbitrary<unknown> = fc.oneof(
  badOrderIdScalar,
  fc.array(ghostOrderId, { minLength: 0, maxLength: 3 }),
);

/** Not an order id and not a list of them: a list with one bad entry, empty, nested, or past 500. */
export const badOrderIdList: fc.Arbitrary<unknown> = fc.oneof(
  badOrderIdScalar,
  fc
    .tuple(fc.array(ghostOrderId, { maxLength: 3 }), badOrderIdScalar, fc.nat())
    .map(([ids, bad, at]) => {
      const list: unknown[] = [...ids];
      list.splice(at % (ids.length + 1), 0, bad);
      return list;
    }),
  fc.constant([]),
  ghostOrderId.map((id) => [[id]]),
  fc.constant(Array.from({ length: 501 }, (_, i) => String(9_000_000_000 + i))),
);

/** Keys that would poison an object built carelessly from input. */
export const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "__defineGetter__", "hasOwnProperty", "toString", "valueOf"] as const;

/** A key no request schema has: a random one, a prototype key, or a known one in the wrong case. */
export const unknownKey = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS),
  fc.constantFrom("isAdmin", "role", "status", "position", "id", "$where", "", " ", "orderid", "ORDERID", "Email"),
  fc.string({ minLength: 1, maxLength: 12 }).map((s) => `x_${s}`),
);

/** Sets an own enumerable key, `__proto__` included (an object literal would set the prototype). */
export const withOwnKey = (object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> => {
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(object)) Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
};

const withoutKey = (object: Record<string, unknown>, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));

export const jsonBody = (label: string, json: unknown, contentType = "application/json"): FuzzBody => {
  let text: string | undefined;
  try {
    text = JSON.stringify(json);
  } catch {
    text = undefined;
  }
  return text === undefined ? { label, contentType, body: "" } : { label, contentType, body: text, json: JSON.parse(text) as unknown };
};

/**
 * A plausible body with exactly one thing wrong: a field missing, replaced by a bad value, or an
 * unknown key beside it (the endpoints refuse unknown keys), or a prototype key carrying a payload.
 */
export const oneFieldCorrupted = (
  plausible: fc.Arbitrary<Record<string, unknown>>,
  badValues: Readonly<Record<string, fc.Arbitrary<unknown>>>,
): fc.Arbitrary<FuzzBody> => {
  const fields = Object.keys(badValues);
  const corruption = fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...fields).map((field) => ({ kind: "missing" as const, field })) },
    {
      weight: 5,
      arbitrary: fc
        .constantFrom(...fields)
        .chain((field) => fc.oneof(badValues[field]!, anyBadValue).map((value) => ({ kind: "replaced" as const, field, value }))),
    },
    { weight: 1, arbitrary: fc.tuple(unknownKey, fc.jsonValue({ maxDepth: 2 })).map(([field, value]) => ({ kind: "extra-key" as const, field, value })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("__proto__", "constructor")
        .map((field) => ({ kind: "prototype-pollution" as const, field, value: { isAdmin: true, status: 1, prototype: { polluted: true } } })),
    },
  );
  return fc.tuple(plausible, corruption).map(([body, c]) => {
    switch (c.kind) {
      case "missing":
        return jsonBody(`missing ${c.field}`, withoutKey(body, c.field));
      case "replaced":
        return jsonBody(`bad ${c.field}`, withOwnKey(withoutKey(body, c.field), c.field, c.value));
      case "extra-key":
      case "prototype-pollution":
        return jsonBody(c.kind, withOwnKey(body, c.field, c.value));
    }
  });
};

/** Arbitrary JSON, on its own or under the endpoint's own keys so that it reaches the field checks. */
export const arbitraryJson = (keys: readonly string[]): fc.Arbitrary<FuzzBody> =>
  fc.oneof(
    fc.jsonValue().map((json) => jsonBody("arbitrary JSON", json)),
    fc.anything({ maxDepth: 3 }).map((value) => jsonBody("arbitrary value as JSON", value)),
    fc
      .record(Object.fromEntries(keys.map((key) => [key, fc.jsonValue({ maxDepth: 2 })])), { requiredKeys: [] })
      .map((json) => jsonBody("arbitrary JSON under the endpoint's keys", json)),
  );

const MALFORMED_JSON = [
  "{",
  "}",
  "{not json",
  "{'orderId': '9000000001'}",
  '{"orderId": }',
  '{"orderId": "9000000001",}',
  '{"orderId": 9000000001 "email": "a@b.co"}',
  "[1, 2,",
  "NaN",
  "undefined",
  '{"a": undefined}',
  '{"a": 0x10}',
  '{"a": 01}',
  '{"a": .5}',
  '{"a": Infinity}',
  '{"a": "\\x41"}',
  '{"a": "\\u12"}',
  '{"a": "line\nbreak"}',
  "\u0000",
  "\ufeff\ufeff{}",
  "/* comment */ {}",
  '{"a": 1} {"b": 2}',
  '"just a string"',
  "12345",
  "null",
  "true",
  "[".repeat(5_000),
  "{\"a\":".repeat(2_000),
];

/** Bodies that are not valid JSON, sent as JSON. */
export const malformedJson: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.constantFrom(...MALFORMED_JSON).map((body) => ({ label: "malformed JSON", contentType: "application/json", body })),
  fc.string({ maxLength: 60 }).map((body) => ({ label: "random text as JSON", contentType: "application/json", body })),
  fc.uint8Array({ maxLength: 200 }).map((body) => ({ label: "random bytes as JSON", contentType: "application/json", body })),
  fc.jsonValue().map((json) => ({ label: "truncated JSON", contentType: "application/json", body: JSON.stringify(json).slice(0, -1) })),
);

const WRONG_CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/xml",
  "text/html",
  "application/octet-stream",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "application/json; charset=utf-16",
  "application/json; charset=klingon",
  "application/json-patch+json",
  "application/jsonp",
  "json",
  "",
  ";;;",
  "application/json, text/plain",
  "*/*",
];

/** A plausible body under a content type the API does not read as JSON (or cannot decode). */
export const wrongContentType = (plausible: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<FuzzBody> =>
  fc.tuple(plausible, fc.constantFrom(...WRONG_CONTENT_TYPES), fc.boolean()).map(([json, contentType, asForm]) => {
    const body = asForm
      ? new URLSearchParams(Object.entries(json).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString()
      : JSON.stringify(json);
    return { label: `content type ${JSON.stringify(contentType)}`, contentType, body, json };
  });

export const concatBytes = (chunks: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
};

/** A multipart boundary, from RFC 2046's characters. */
export const multipartBoundary = fc.string({ minLength: 1, maxLength: 70, unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'()+_,-./:=?") });

/** Random bytes under a multipart content type with a random boundary. */
export const randomMultipart: fc.Arbitrary<FuzzBody> = fc
  .tuple(multipartBoundary, fc.uint8Array({ maxLength: 2_000 }), fc.boolean())
  .map(([b, bytes, framed]) => ({
    label: framed ? "random bytes inside multipart boundaries" : "random bytes as multipart",
    contentType: `multipart/form-data; boundary=${b}`,
    body: framed ? concatBytes([utf8.encode(`--${b}\r\n`), bytes, utf8.encode(`\r\n--${b}--\r\n`)]) : bytes,
  }));


export type FormFlaw = "none" | "no closing boundary" | "other boundary in header" | "no boundary in header" | "quoted boundary" | "multipart/mixed" | "LF line ends" | "cut in half";

/** A multipart body built by hand, so that it can be wrong in ways a browser never is. */
export const multipartBody = (label: string, parts: readonly FormPart[], b: string, flaw: FormFlaw): FuzzBody => {
  const eol = flaw === "LF line ends" ? "\n" : "\r\n";
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? "" : `; filename="${part.filename}"`}`;
    const type = part.contentType === undefined ? "" : `Content-Type: ${part.contentType}${eol}`;
    chunks.push(utf8.encode(`--${b}${eol}${disposition}${eol}${type}${eol}`), part.content, utf8.encode(eol));
  }
  if (flaw !== "no closing boundary") chunks.push(utf8.encode(`--${b}--${eol}`));
  let body = concatBytes(chunks);
  if (flaw === "cut in half") body = body.subarray(0, Math.floor(body.length / 2));
  const contentType =
    flaw === "other boundary in header"
      ? `multipart/form-data; boundary=${b}x`
      : flaw === "no boundary in header"
        ? "multipart/form-data"
        : flaw === "quoted boundary"
          ? `multipart/form-data; boundary="${b}"`
          : flaw === "multipart/mixed"
            ? `multipart/mixed; boundary=${b}`
            : `multipart/form-data; boundary=${b}`;
  return { label: flaw === "none" ? label : `${label}, ${flaw}`, contentType, body, parts };
};

export const formFlaw: fc.Arbitrary<FormFlaw> = fc.oneof(
  { weight: 6, arbitrary: fc.constant("none" as const) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "no closing boundary" as const,
      "other boundary in header" as const,
      "no boundary in header" as const,
      "quoted boundary" as const,
      "multipart/mixed" as const,
      "LF line ends" as const,
      "cut in half" as const,
    ),
  },
);
