import type * as Requests from "../requests/index.ts";
import type { Action } from "../permissions.ts";
import type { ReadModel } from "../vocabulary.ts";

/*
 * What an endpoint is, declared once as plain data (issue 26, ADR 0033): its method and path, who
 * may call it, what it reads from the request (request schemas named, so the web app's bundle
 * carries names, never the schema library), what its success answers, every status it can answer,
 * and the read models it changes or waits for. The API binds a handler to each declaration by name
 * (a missing one fails its typecheck) and derives the Express route and the OpenAPI document from
 * it; the web app calls it with `callApi` and derives read-your-writes from it.
 */

/** A permission action (a signed-in member whose role the matrix allows it), the traveller's pages, or the intake's service token. */
export type Guard = Action | "public" | "service";

/** The name of a request schema exported by `@etd/contract/requests` (anything with a decoded and an encoded type). */
export type SchemaName = {
  [K in keyof typeof Requests]: (typeof Requests)[K] extends { readonly Type: unknown; readonly Encoded: unknown } ? K : never;
}[keyof typeof Requests];

/** The schema a name stands for. */
export type SchemaNamed<N extends SchemaName> = (typeof Requests)[N];

/** The statuses an endpoint answers, each with what it means. */
export type Answers = { readonly [status: number]: string };

/** What a success's `data` holds, as a type only: `data: answer<QueuePage>()`. */
export interface Answer<T> {
  readonly __answer?: T;
}
export const answer = <T>(): Answer<T> => ({});

export interface EndpointDeclaration {
  readonly method: "get" | "post" | "put";
  /** Under /api, exactly as the specs write it; `:name` is a path parameter, declared in `params`. */
  readonly path: string;
  readonly guard: Guard;
  readonly summary: string;
  /** The JSON body's schema (POST, PUT). */
  readonly body?: SchemaName;
  /** The query string's schema (GET). Only the parameters it names are read, unless `strictQuery`. */
  readonly query?: SchemaName;
  /** Unknown query parameters are refused with 400 instead of ignored. */
  readonly strictQuery?: boolean;
  /** The path parameters' schema. */
  readonly params?: SchemaName;
  /** A multipart form: its text fields' schema and its file field's name. */
  readonly form?: { readonly fields: SchemaName; readonly file: string };
  /** The handler reads its input itself (a decoder with messages of its own): a body is required even where the schema would take `{}`. */
  readonly readsInputItself?: boolean;
  /** What a success's `data` holds. */
  readonly data?: Answer<unknown>;
  /** A success answers this file (its media type) instead of the JSON envelope: CSV, JSON lines, PDF. */
  readonly file?: string;
  /**
   * The statuses its handler answers besides the layer's (200, a refused input, the guard's
   * refusals, a body too large: the API derives those), with what each means.
   */
  readonly answers?: Answers;
  /** A POST that only reads (the specs send some searches and reports as POST); never appends. */
  readonly readOnly?: boolean;
  /**
   * A query's read models: a request with `X-Read-After` waits for these only (none when empty).
   * Absent (commands, sign-in, …): it waits for every read model.
   */
  readonly reads?: readonly ReadModel[];
  /**
   * A command's read models: what its events change, so the client that ran it reads them again
   * after its position (read-your-writes).
   */
  readonly changes?: readonly ReadModel[];
  /** Also accepts the session cookie, from this site only: a download a browser follows as a plain link. */
  readonly sessionCookie?: boolean;
  /** Open to a member who must set up two-factor sign-in before they have. */
  readonly beforeTwoFactor?: boolean;
}

/** A table of declarations, keyed by the endpoint's name; keeps every literal for the types derived from it. */
export const endpoints = <const T extends Record<string, EndpointDeclaration>>(table: T): T => table;

type Decoded<N> = N extends SchemaName ? SchemaNamed<N>["Type"] : undefined;
type Encoded<N> = N extends SchemaName ? SchemaNamed<N>["Encoded"] : undefined;

/** What the handler gets as `input`: the decoded body, else the decoded query, else the form's fields. */
export type InputOf<E extends EndpointDeclaration> = E["body"] extends SchemaName
  ? Decoded<E["body"]>
  : E["query"] extends SchemaName
    ? Decoded<E["query"]>
    : E["form"] extends { readonly fields: infer F }
      ? Decoded<F>
      : undefined;
/** What the handler gets as `params`. */
export type ParamsOf<E extends EndpointDeclaration> = Decoded<E["params"]>;
/** What a success's `data` holds. */
export type DataOf<E extends EndpointDeclaration> = E["data"] extends Answer<infer T> ? T : unknown;
/** The body a client sends. */
export type BodyOf<E extends EndpointDeclaration> = Encoded<E["body"]>;
/** The query a client sends. */
export type QueryOf<E extends EndpointDeclaration> = Encoded<E["query"]>;
/** The path parameters a client fills in. */
export type PathOf<E extends EndpointDeclaration> = Encoded<E["params"]>;

/** Statuses answered for several reasons: each reason, joined. */
export const withAnswers = (...sets: readonly (Answers | undefined)[]): Answers => {
  const joined: Record<number, string> = {};
  for (const set of sets) {
    for (const [status, description] of Object.entries(set ?? {})) {
      const code = Number(status);
      joined[code] = joined[code] === undefined ? description : `${joined[code]}; or: ${description}`;
    }
  }
  return joined;
};

/** A command on one order or several: the order decider's refusals. */
export const ORDER_COMMAND_ANSWERS: Answers = {
  400: "The order's state does not allow it (the decider's message), or expectedVersion sent with several orders",
  403: "The order is another member's: read-only below Manager (QUEUE-12)",
  404: "The order does not exist",
  409: "The order changed first: the message names who and when, data what changed; in a bulk action, some orders were refused (data.refused)",
};

/** A change to a staff account: the staff decider's refusals and the credentials' checks. */
export const STAFF_ACCOUNT_ANSWERS: Answers = {
  400: "The staff decider refuses the values",
  403: "Only an Admin may change an Admin, a Manager's role or password, and no one their own role",
  404: "The team member does not exist",
  409: "The e-mail is another member's, the last Admin would go, or the account changed first",
};

/** The traveller's pages: every request counts against the address's limit. */
export const PUBLIC_RATE_LIMITED: Answers = {
  429: "Too many requests from this address: the message says in how many seconds to try again",
};
