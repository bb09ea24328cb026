import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import * as SchemaIssue from "effect/SchemaIssue";

/*
 * Every answer uses the specs' envelope `{status: 1|0, message, data}` (CROSS-1). A few answers
 * carry more top-level keys because the existing client reads them there (sign-in's `jwtToken`,
 * the download history's `path`).
 */

/** The type-only key a reply's data type sits under: no reply holds it at run time. */
declare const DATA: unique symbol;

/**
 * An answer. `T` is what a success's `data` holds, checked against the endpoint's declared answer
 * (`data` in @etd/contract/endpoints): `ok` gives it; `fail` holds none (`Reply<never>`), which any
 * endpoint may answer; `fileReply` answers a file, which only a file endpoint may. Replies are made
 * by these three only: the data type is required, so an object written by hand is not a reply and
 * cannot slip past its endpoint's declaration.
 */
export interface Reply<T = unknown> {
  readonly [DATA]: T;
  readonly httpStatus: number;
  readonly body: { readonly status: 0 | 1; readonly message: string; readonly data: unknown } & Record<string, unknown>;
  /**
   * Sent instead of the JSON body: exports and other files. With `inline` the browser shows the
   * file (a PDF in a new window) instead of saving it. A body of text chunks is streamed as they
   * come, so a large export never sits whole in memory.
   */
  readonly raw?: {
    readonly contentType: string;
    readonly body: string | Buffer | AsyncIterable<string>;
    readonly fileName?: string;
    readonly inline?: boolean;
  };
  /** Cookies to set (a value) or clear (undefined) with the answer; see `cookies.ts`. */
  readonly cookies?: readonly CookieChange[];
}

/** What a file endpoint's success answers in place of `data`: the file, sent instead of the envelope. */
export interface FileAnswer {
  readonly file: true;
}

/**
 * The one place a reply gets its data type. The type is a phantom (DATA is never set), so this
 * cast is sound: `ok` passes the very value it puts in `body.data` as `T`, `fail` a failure that
 * holds no success's data, `fileReply` a body that is never sent (the file is).
 */
const reply = <T>(fields: Omit<Reply<T>, typeof DATA>): Reply<T> => fields as Reply<T>;

export interface CookieChange {
  readonly name: string;
  /** Undefined clears the cookie. */
  readonly value: string | undefined;
  readonly path: string;
  readonly maxAgeSeconds: number;
}

/** The same answer, also setting or clearing cookies. */
export const withCookies = <T>(reply: Reply<T>, ...cookies: CookieChange[]): Reply<T> => ({ ...reply, cookies: [...(reply.cookies ?? []), ...cookies] });

/** A success, `data` in the envelope; `extra` keys beside it where the existing client reads them there. */
export const ok = <T = null>(message: string, data: T = null as T, extra: Record<string, unknown> = {}): Reply<T> =>
  reply({ httpStatus: 200, body: { status: 1, message, data, ...extra } });

export const fail = (httpStatus: number, message: string, data: unknown = null, extra: Record<string, unknown> = {}): Reply<never> =>
  reply({ httpStatus, body: { status: 0, message, data, ...extra } });

/** A success that answers a file (a file endpoint's): `raw` is sent, the envelope is not. */
export const fileReply = (raw: NonNullable<Reply["raw"]>): Reply<FileAnswer> =>
  reply({ httpStatus: 200, body: { status: 1, message: "", data: null }, raw });

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1();

/**
 * Decodes a request's input. A bad input answers 400 with the first problem as the message (the
 * specification's wording, from the schema's annotations) and every problem in `data.errors`.
 */
export const decodeInput = <S extends Schema.Codec<unknown, unknown>>(
  schema: S,
  input: unknown,
): Result.Result<S["Type"], Reply<never>> => {
  const decoded = Schema.decodeUnknownResult(schema)(input ?? {}, { errors: "all", onExcessProperty: "error" });
  if (Result.isSuccess(decoded)) return Result.succeed(decoded.success);
  const errors: FieldError[] = formatter(decoded.failure.issue).issues.map((issue) => {
    const field = (issue.path ?? []).map((key) => String(typeof key === "object" ? key.key : key)).join(".");
    const message = issue.message === "Expected no excess property" ? `The field "${field}" is not accepted.` : issue.message;
    return { field, message };
  });
  const first = errors[0];
  const message = first ? (first.field && !isSentence(first.message) ? `${first.field}: ${first.message}` : first.message) : "Invalid request.";
  return Result.fail(fail(400, message, { errors }));
};

/** Messages written for users (the specs' own) start with a capital; generic ones get the field name. */
const isSentence = (message: string) => /^[A-Z]/.test(message) && !/^(Expected|Missing key|Invalid data)/.test(message);
