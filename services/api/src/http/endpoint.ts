import { Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type express from "express";
import * as Result from "effect/Result";
import type * as Schema from "effect/Schema";
import { isAllowed, isUuid, TWO_FACTOR_REQUIRED, type Action, type ReadModel } from "@etd/contract";
import * as Requests from "@etd/contract/requests";
import type {
  ENDPOINTS,
  EndpointDeclaration,
  Guard,
  DataOf,
  InputOf as DeclaredInput,
  ParamsOf,
  SchemaName,
  Answers,
} from "@etd/contract/endpoints";
import { withAnswers } from "@etd/contract/endpoints";
import type { Role } from "@etd/events";
import type { Credentials } from "../auth/credentials.ts";
import type { SessionRevocations } from "../auth/sessions.ts";
import { tokenFromHeader, type SessionUser, type TokenIssuer } from "../auth/tokens.ts";
import { clearCookie, cookieFromThisSite, SESSION_COOKIE, setCookie } from "./cookies.ts";
import { holdsOnlyUsableText, UNUSABLE_TEXT } from "./clean-text.ts";
import { decodeInput, fail, type FileAnswer, type Reply } from "./reply.ts";
import { clientAddress } from "./client-address.ts";
import { parsePosition, type GlobalPosition } from "@etd/event-store";
import type { RequestMetrics } from "../metrics.ts";
import { inSpan } from "@etd/telemetry";

/*
 * One table of endpoints, each naming its guard, so that the server checks every call the same
 * way and tests can walk the whole table (R6). A guard is a permission action (a signed-in staff
 * member whose role the matrix allows), "public" (the traveller's pages) or "service" (the
 * customer-facing site's intake, with its own token).
 *
 * Each endpoint also declares what it reads from the request: the path parameters, the query
 * string and the JSON body, each with its schema from @etd/contract. The layer below decodes them
 * once, after the guard and before the handler, and answers a bad one with 400 and the schema's
 * message (decodeInput); the handler gets them typed, as `params` and `input`, and, behind a
 * staff guard, the signed-in member as a `user` that is always there (ADR 0012).
 */


/** What every handler gets: the request itself (headers, cookies) and who sent it. */
export interface RequestContext {
  readonly req: express.Request;
  /** Correlates every event this request leads to. */
  readonly requestId: string;
  readonly ip: string;
}

/** A decoded request: `params` from the path, `input` from the body (POST, PUT) or the query (GET). */
export interface DecodedRequest<I, P> extends RequestContext {
  readonly input: I;
  readonly params: P;
}

/** The member the guard admitted, and a way to ask again later. */
export interface AdmittedStaff {
  readonly user: SessionUser;
  /**
   * The member as they are now, if the request's session still stands and they may still call the
   * endpoint (not signed out, deleted, re-roled out of it or reset since): an answer that runs
   * long, such as an export, asks again as it goes.
   */
  readonly stillAdmitted: () => Promise<SessionUser | undefined>;
}

/** A staff endpoint's request: the guard has checked this member against the permission matrix. */
export interface StaffRequest<I = undefined, P = undefined> extends DecodedRequest<I, P>, AdmittedStaff {}

/** A public or service endpoint's request: nobody is signed in. */
export type AnonymousRequest<I = undefined, P = undefined> = DecodedRequest<I, P>;

export interface MultipartForm {
  /** The text fields' schema, which the endpoint decodes them with. */
  readonly fields: Schema.Top;
  /** The file's field. */
  readonly file: string;
}

export interface Endpoint {
  readonly method: "get" | "post" | "put";
  /** Under /api, exactly as the specs write it. */
  readonly path: string;
  readonly guard: Guard;
  readonly summary: string;
  /** The JSON body's schema: the layer decodes with it; the OpenAPI document and the R5 fuzz read it. */
  readonly body?: Schema.Top;
  /** The query string's schema. */
  readonly query?: Schema.Top;
  /** The path parameters' schema. */
  readonly params?: Schema.Top;
  /** A POST that only reads (the specs send some searches and reports as POST); never appends. */
  readonly readOnly?: boolean;
  /** Every status it can answer, with what each means: the layer's (layerAnswers) and the handler's. */
  readonly answers: Answers;
  /** A success answers this file (its media type) instead of the JSON envelope: CSV, JSON lines, PDF. */
  readonly file?: string;
  /** A multipart form the endpoint reads itself: its text fields' schema and its file field's name. */
  readonly form?: MultipartForm;
  /** Reads its input itself (`readingInput`): a body is required even where the schema would take `{}`. */
  readonly readsInputItself?: boolean;
  /**
   * The read models a query reads: a request with `X-Read-After` waits for these only (none when
   * empty). Absent (commands, sign-in, …): it waits for every read model, as before.
   */
  readonly reads?: readonly ReadModel[];
  /**
   * Also accepts the session cookie when no Authorization header is sent: a download a browser
   * follows as a plain link (the CSV exports), like the document links; only from this site
   * (`cookieFromThisSite`).
   */
  readonly sessionCookie?: boolean;
  /**
   * Open to a member whose role must use two-factor sign-in (REQUIRE_2FA_FOR) before they have set
   * it up: who they are, signing out, and the setup itself (issue 16). Every other staff endpoint
   * answers them 403 until then.
   */
  readonly beforeTwoFactor?: boolean;
  /**
   * Decodes the request and runs the handler; `staff` is the member the guard admitted (undefined
   * for "public" and "service"). Built by bindEndpoints.
   */
  readonly run: (context: RequestContext, staff: AdmittedStaff | undefined) => Promise<Reply>;
}

/** The request a declared endpoint's handler gets: decoded, and behind a staff guard the admitted member. */
type RequestFor<E extends EndpointDeclaration, I = DeclaredInput<E>> = E["guard"] extends "public" | "service"
  ? AnonymousRequest<I, ParamsOf<E>>
  : StaffRequest<I, ParamsOf<E>>;

/** What a declared endpoint's success answers: its declared `data`, or, for a file endpoint, the file. */
type AnswerOf<E extends EndpointDeclaration> = E["file"] extends string ? FileAnswer : DataOf<E>;

type Handle<E extends EndpointDeclaration> = (request: RequestFor<E>) => Promise<Reply<AnswerOf<E>>>;

/** A refused input's 400, reshaped (an answer whose keys the client always reads): still a refusal. */
type Refusal = (refused: Reply<never>) => Reply<never>;

/** A handler with a reshaped refusal. */
interface HandleWithRefusal<E extends EndpointDeclaration> {
  readonly handle: Handle<E>;
  readonly refusal: Refusal;
}

type ReadResult<T> = Promise<Result.Result<T, Reply<never>>> | Result.Result<T, Reply<never>>;

/**
 * The handler of an endpoint declared `readsInputItself`: `read` reads the request's input and
 * answers the handler bound to it, ready to run with the rest of the request (`R`). The input's
 * type is the reader's and the handler's business alone, so no declaration states it.
 */
export interface ReadingHandler<R, D> {
  readonly read: (req: express.Request) => Promise<Result.Result<(request: R) => Promise<Reply<D>>, Reply<never>>>;
  /** The schema it reads the body by, where the contract cannot name it: documented as a declared body is. */
  readonly body?: Schema.Top;
}

/**
 * Reads the input itself instead of decoding it with the declared schema (which still documents
 * it): a decoder with messages of its own (intake), or a multipart form whose file is streamed to
 * storage (uploads). Runs where the schema would: after the guard, before the handler, which gets
 * what `readInput` read as its `input`.
 */
export const readingInput = <R, I, D>(
  readInput: (req: express.Request) => ReadResult<I>,
  handle: (request: R & { readonly input: I }) => Promise<Reply<D>>,
  body?: Schema.Top,
): ReadingHandler<R, D> => ({
  read: async (req) => Result.map(await readInput(req), (input) => (request: R) => handle({ ...request, input })),
  ...(body ? { body } : {}),
});

/** What the API binds to a declared endpoint. */
export type HandlerFor<E extends EndpointDeclaration> = E["readsInputItself"] extends true
  ? ReadingHandler<Omit<RequestFor<E>, "input">, AnswerOf<E>>
  : Handle<E> | HandleWithRefusal<E>;

/** A handler for every endpoint of a table of declarations, by name: a missing or mistyped one fails the typecheck. */
export type HandlersFor<T extends Record<string, EndpointDeclaration>> = { readonly [N in keyof T]: HandlerFor<T[N]> };

/** The API's handlers: one for every endpoint @etd/contract/endpoints declares. */
export type Handlers = HandlersFor<typeof ENDPOINTS>;

/** The names that more than one of `parts` handles. */
type HandledTwice<P extends readonly object[], Seen extends PropertyKey = never> = P extends readonly [
  infer First extends object,
  ...infer Rest extends readonly object[],
]
  ? (keyof First & Seen) | HandledTwice<Rest, Seen | keyof First>
  : never;

type Joined<P extends readonly object[]> = P extends readonly [infer First, ...infer Rest extends readonly object[]] ? First & Joined<Rest> : unknown;

/**
 * The route files' handlers, as one table. A name two of them handle would have the later one
 * silently replace the earlier (a spread does): the joined type is then `{handledTwice: names}`,
 * which is no `Handlers`, so the typecheck fails and names them; and should a cast hide it, the
 * table refuses to be built.
 */
export const joinHandlers = <const P extends readonly Partial<Handlers>[]>(
  ...parts: P
): [HandledTwice<P>] extends [never] ? Joined<P> : { readonly handledTwice: HandledTwice<P> } => {
  const joined: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [name, handler] of Object.entries(part)) {
      if (name in joined) throw new Error(`${name} is handled twice`);
      joined[name] = handler;
    }
  }
  // The loop has checked at run time what the return type states: every part's handlers, each name once.
  return joined as [HandledTwice<P>] extends [never] ? Joined<P> : { readonly handledTwice: HandledTwice<P> };
};

/** A request as the layer hands it to a handler: decoded, with the member behind a staff guard. */
type BoundRequest = RequestContext & { readonly params: unknown } & Partial<AdmittedStaff>;

/** A handler with its declaration's types forgotten, as the layer runs it (see bindEndpoints). */
type ErasedHandler =
  | ((request: BoundRequest & { readonly input: unknown }) => Promise<Reply>)
  | { readonly handle: (request: BoundRequest & { readonly input: unknown }) => Promise<Reply>; readonly refusal: Refusal }
  | ReadingHandler<BoundRequest, unknown>;

/** The request schema a declaration names. */
const schemaNamed = (name: SchemaName | undefined): Schema.Codec<unknown, unknown> | undefined => (name === undefined ? undefined : Requests[name]);

/** The field names of a Struct schema; undefined for any other. */
const fieldsOf = (schema: Schema.Top | undefined): string[] | undefined =>
  schema !== undefined && "fields" in schema && typeof schema.fields === "object" && schema.fields !== null ? Object.keys(schema.fields) : undefined;

/** Only the parameters a schema names, when it names any (see `strictQuery`). */
const declaredOnly = (schema: Schema.Top, source: Record<string, unknown>): Record<string, unknown> => {
  const fields = fieldsOf(schema);
  if (fields === undefined) return source;
  return Object.fromEntries(fields.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
};

const decodeWith = (schema: Schema.Codec<unknown, unknown> | undefined, raw: unknown): Result.Result<unknown, Reply<never>> =>
  schema === undefined ? Result.succeed(undefined) : decodeInput(schema, raw);

/** The statuses the layer itself answers for an endpoint, from its guard and whether it reads input. */
const layerAnswers = (declared: EndpointDeclaration, decodes: boolean): Answers => {
  const answers: Record<number, string> = {
    200: "Success: status 1",
    // Every request: the text check and the JSON parser run before any endpoint (mountEndpoints, app.ts).
    400: decodes
      ? "A field is missing or not valid (the message is the form's own, every problem in data.errors), the body is not JSON, or a text holds NUL or a lone surrogate"
      : "The body is not JSON, or a text holds NUL or a lone surrogate",
  };
  if (declared.guard !== "public") answers[401] = "No token, or a bad, expired or ended one";
  if (declared.guard !== "public" && declared.guard !== "service") answers[403] = "The role may not do this, or the member must set up two-factor sign-in first";
  if (declared.method !== "get") {
    answers[413] = "The body is larger than the JSON limit (2 MB)";
    answers[415] = "The body's character set or content encoding is not one the JSON parser reads";
  }
  return answers;
};

/** Every `:name` of a path is declared in the endpoint's `params` schema, so that it is decoded and documented. */
const checkPathParameters = (declared: EndpointDeclaration, params: Schema.Top | undefined) => {
  const names = fieldsOf(params) ?? [];
  for (const [, name] of declared.path.matchAll(/:([A-Za-z]+)/g)) {
    if (!names.includes(name!)) throw new Error(`${declared.method} ${declared.path}: the path parameter ${name} is not declared in params`);
  }
};

/** One table entry: the declaration with its schemas resolved, run by its handler. */
const bind = (name: string, declared: EndpointDeclaration, handler: ErasedHandler): Endpoint => {
  const bound = typeof handler === "function" ? { handle: handler } : handler;
  const reads = "read" in bound ? bound : undefined;
  if ((declared.readsInputItself === true) !== (reads !== undefined)) throw new Error(`${name}: declared readsInputItself, bound without readingInput, or the other way round`);
  const declaredBody = schemaNamed(declared.body);
  // Intake's body is the write side's schema, which the contract cannot name: its handler brings it.
  const body = declaredBody ?? reads?.body;
  const query = schemaNamed(declared.query);
  const params = schemaNamed(declared.params);
  if (body !== undefined && query !== undefined) throw new Error(`${declared.path}: an endpoint reads a body or a query, not both`);
  checkPathParameters(declared, params);
  const refusal = "refusal" in bound ? bound.refusal : (refused: Reply<never>) => refused;
  /** The declared schema's input, decoded, and the handler to run with it. */
  const decoding =
    (handle: (request: BoundRequest & { readonly input: unknown }) => Promise<Reply>) =>
    async (req: express.Request): Promise<Result.Result<(request: BoundRequest) => Promise<Reply>, Reply<never>>> => {
      const rawQuery: Record<string, unknown> = req.query;
      const input = query ? decodeWith(query, declared.strictQuery ? rawQuery : declaredOnly(query, rawQuery)) : decodeWith(declaredBody, req.body);
      return Result.map(input, (decoded) => (request: BoundRequest) => handle({ ...request, input: decoded }));
    };
  const readInput = "read" in bound ? bound.read : decoding(bound.handle);

  const staffOnly = declared.guard !== "public" && declared.guard !== "service";
  return {
    method: declared.method,
    path: declared.path,
    guard: declared.guard,
    summary: declared.summary,
    answers: withAnswers(layerAnswers(declared, body !== undefined || query !== undefined || params !== undefined || reads !== undefined), declared.answers),
    ...(declared.file !== undefined ? { file: declared.file } : {}),
    ...(declared.form !== undefined ? { form: { fields: schemaNamed(declared.form.fields)!, file: declared.form.file } } : {}),
    ...(reads !== undefined ? { readsInputItself: true } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(query !== undefined ? { query } : {}),
    ...(params !== undefined ? { params } : {}),
    ...(declared.readOnly !== undefined ? { readOnly: declared.readOnly } : {}),
    ...(declared.reads !== undefined ? { reads: declared.reads } : {}),
    ...(declared.sessionCookie ? { sessionCookie: true } : {}),
    ...(declared.beforeTwoFactor ? { beforeTwoFactor: true } : {}),
    // Path parameters, then the query or the body: the first one refused is the answer.
    run: async (context, staff) => {
      // The layer runs a staff endpoint only for a member it has authenticated and checked.
      if (staffOnly && staff === undefined) return fail(401, UNAUTHORIZED);
      const decodedParams = decodeWith(params, { ...context.req.params });
      if (Result.isFailure(decodedParams)) return refusal(decodedParams.failure);
      const ready = await readInput(context.req);
      if (Result.isFailure(ready)) return refusal(ready.failure);
      return ready.success({ ...context, params: decodedParams.success, ...staff });
    },
  };
};

/**
 * The endpoint table: each declaration, its schemas resolved by name, with its handler. The app
 * binds @etd/contract/endpoints' ENDPOINTS; a test may bind a table of its own the same way.
 */
export const bindEndpoints = <T extends Record<string, EndpointDeclaration>>(declarations: T, handlers: HandlersFor<T>): Endpoint[] => {
  // HandlersFor<T> has checked each handler against its own declaration: the request it takes
  // (the input and params its schemas decode to, the member behind a staff guard) and the data
  // it answers. Here the layer forgets those types, as it must to run every endpoint alike, and
  // keeps them at run time instead: `bind` decodes with the very schemas the declaration names
  // and admits only whom its guard admits. So this cast, the layer's only one, is sound.
  const erased = handlers as unknown as Readonly<Record<string, ErasedHandler | undefined>>;
  return Object.entries(declarations).map(([name, declared]) => {
    const handler = erased[name];
    if (handler === undefined) throw new Error(`${name}: no handler`);
    return bind(name, declared, handler);
  });
};

export interface GuardDeps {
  readonly tokens: TokenIssuer;
  readonly credentials: Credentials;
  /** Sessions ended by signing out (issue 9 item 7). */
  readonly sessions: SessionRevocations;
  /** REQUIRE_2FA_FOR: roles refused everything but `beforeTwoFactor` endpoints until they set it up. */
  readonly requireTwoFactorFor?: ReadonlySet<Role>;
  readonly serviceToken: string | undefined;
}

export interface MountDeps extends GuardDeps {
  /** Read-your-writes: waits until these read models (every one when absent) have applied a position. */
  readonly waitForReadModels: (position: GlobalPosition, projections?: readonly ReadModel[]) => Promise<boolean>;
  readonly metrics: RequestMetrics;
  /** Cookies carry `Secure` (served behind TLS). */
  readonly secureCookies: boolean;
}

export const UNAUTHORIZED = "Your session has expired or is not valid. Please sign in again.";
export const FORBIDDEN = "You do not have permission to do this.";
/** The contract's words: the web app knows this refusal by them. */
export { TWO_FACTOR_REQUIRED };

const send = (res: express.Response, reply: Reply, secureCookies: boolean) => {
  for (const cookie of reply.cookies ?? []) {
    const options = { path: cookie.path, secure: secureCookies };
    if (cookie.value === undefined) clearCookie(res, cookie.name, options);
    else setCookie(res, cookie.name, cookie.value, { ...options, maxAgeSeconds: cookie.maxAgeSeconds });
  }
  if (reply.raw) {
    if (reply.raw.fileName) {
      // Express encodes the name (RFC 6266); only the disposition's type differs for inline files.
      res.attachment(reply.raw.fileName);
      if (reply.raw.inline) res.set("content-disposition", res.get("content-disposition")!.replace(/^attachment/, "inline"));
    }
    res.status(reply.httpStatus).type(reply.raw.contentType);
    const { body } = reply.raw;
    if (typeof body === "string" || Buffer.isBuffer(body)) {
      res.send(body);
      return;
    }
    // A failure half-way cuts the connection: the client sees a broken download, never a short file
    // that looks complete.
    pipeline(Readable.from(body), res).catch(() => res.destroy());
    return;
  }
  res.status(reply.httpStatus).json(reply.body);
};

/** A session that still stands: its member as they are now, and the token's session id and expiry. */
export interface ActiveSession {
  readonly user: SessionUser;
  readonly sessionId: string;
  /** The token's `exp`, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** The member has set up two-factor sign-in, as the credentials say now. */
  readonly twoFactor: boolean;
}

/** The member's role must use two-factor sign-in and they have not set it up (yet, or since a reset). */
export const needsTwoFactorSetup = (session: Pick<ActiveSession, "user" | "twoFactor">, requireTwoFactorFor: ReadonlySet<Role> | undefined): boolean =>
  !session.twoFactor && (requireTwoFactorFor?.has(session.user.type) ?? false);

/**
 * The session behind a token (`Authorization` header value, or the session cookie's value where a
 * cookie is accepted), if the token is valid and its session still stands.
 */
export const authenticateSession = async (
  { tokens, credentials, sessions }: Pick<GuardDeps, "tokens" | "credentials" | "sessions">,
  header: string | undefined,
): Promise<ActiveSession | undefined> => {
  const token = tokenFromHeader(header);
  const session = token ? tokens.verify(token) : undefined;
  if (!session) return undefined;
  const [credential, revoked] = await Promise.all([credentials.findById(session.user.id), sessions.isRevoked(session.sessionId)]);
  // A deleted member, a changed password or a sign-out ends the session; a renamed or re-roled
  // member keeps signing in, with the current name and role rather than the token's.
  if (revoked || !credential || credential.sessionGeneration !== session.sessionGeneration) return undefined;
  return {
    user: { id: credential.staffId, name: credential.name, type: credential.role },
    sessionId: session.sessionId,
    expiresAt: session.expiresAt,
    twoFactor: credential.twoFactor,
  };
};

/**
 * The staff member behind a request's token, if the token is valid and its session still stands,
 * for what is served beside the endpoint table (document links). A member who must set up
 * two-factor sign-in first counts as not signed in there: passports are not the setup page.
 */
export const authenticate = async (
  deps: Pick<GuardDeps, "tokens" | "credentials" | "sessions" | "requireTwoFactorFor">,
  header: string | undefined,
): Promise<SessionUser | undefined> => {
  const session = await authenticateSession(deps, header);
  return session && !needsTwoFactorSetup(session, deps.requireTwoFactorFor) ? session.user : undefined;
};

/**
 * The member behind a staff request's credentials (the Authorization header, or the session cookie
 * where the endpoint accepts it), if their session stands and they may call the endpoint; else the
 * refusal to answer.
 */
const admit = async (deps: MountDeps, endpoint: Endpoint, guard: Action, credential: string | undefined): Promise<SessionUser | Reply> => {
  const session = await authenticateSession(deps, credential);
  if (!session) return fail(401, UNAUTHORIZED);
  if (!isAllowed(session.user.type, guard)) return fail(403, FORBIDDEN);
  // Checked per request from the credentials, not from a claim in the token: setting it up,
  // an Admin's reset or a changed REQUIRE_2FA_FOR count from the next request on.
  if (!endpoint.beforeTwoFactor && needsTwoFactorSetup(session, deps.requireTwoFactorFor)) return fail(403, TWO_FACTOR_REQUIRED);
  return session.user;
};

const isReply = (value: SessionUser | Reply): value is Reply => "httpStatus" in value;

export const mountEndpoints = (app: express.Express, endpoints: readonly Endpoint[], deps: MountDeps): void => {
  for (const endpoint of endpoints) {
    app[endpoint.method](`/api${endpoint.path}`, (req, res, next) => {
      const started = performance.now();
      res.once("finish", () => deps.metrics.observe(endpoint.method.toUpperCase(), endpoint.path, res.statusCode, (performance.now() - started) / 1000));
      const requestId = requestIdOf(req);
      // The request's span starts the click's trace: every event it leads to carries requestId as its correlation id.
      const route = `${endpoint.method.toUpperCase()} /api${endpoint.path}`;
      const attributes = { "http.request.method": endpoint.method.toUpperCase(), "http.route": `/api${endpoint.path}`, "etd.correlation_id": requestId };
      const handle = async () => {
        // Decoded at the edge for every endpoint: text no store or search can hold is a 400 here.
        if (!holdsOnlyUsableText(req.body, req.query, req.params)) return send(res, fail(400, UNUSABLE_TEXT), deps.secureCookies);
        const context = { req, requestId, ip: clientAddress(req) };
        const answer = async (staff: AdmittedStaff | undefined) => {
          // A staff client that has just run a command sends its position to read its own write.
          // Nobody else may make a request wait: it would hold a connection for nothing.
          const readAfter = staff ? req.get("x-read-after") : undefined;
          const position = readAfter ? parsePosition(readAfter) : undefined;
          if (position) res.set("x-read-after-reached", String(await deps.waitForReadModels(position, endpoint.reads)));
          send(res, await endpoint.run(context, staff), deps.secureCookies);
        };
        if (endpoint.guard === "public") return answer(undefined);
        if (endpoint.guard === "service") {
          const token = tokenFromHeader(req.get("authorization"));
          if (!deps.serviceToken || !sameSecret(token, deps.serviceToken)) return send(res, fail(401, UNAUTHORIZED), deps.secureCookies);
          return answer(undefined);
        }
        const { guard } = endpoint;
        const credential = req.get("authorization") ?? (endpoint.sessionCookie ? cookieFromThisSite(req, SESSION_COOKIE) : undefined);
        const admitted = await admit(deps, endpoint, guard, credential);
        if (isReply(admitted)) return send(res, admitted, deps.secureCookies);
        await answer({
          user: admitted,
          stillAdmitted: async () => {
            const now = await admit(deps, endpoint, guard, credential);
            return isReply(now) ? undefined : now;
          },
        });
      };
      void inSpan(route, { kind: "server", correlationId: requestId, attributes }, async (span) => {
        await handle();
        // The span lasts until the answer has gone whole (a download streams on after the handler returns).
        if (span.span === undefined) return;
        await finished(res).catch(() => undefined);
        span.set({ "http.response.status_code": res.statusCode });
      }).catch(next);
    });
  }
};

/** Compared in constant time (as digests, so lengths do not show either): a guess learns nothing from how long the refusal took. */
const sameSecret = (given: string | undefined, expected: string) =>
  given !== undefined && timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest());

/**
 * A request id a client or proxy sent, kept only in the form the API gives ids itself (a UUID):
 * metadata is never sealed, so any text a caller chose would stay readable in the log after the
 * order it touched is erased (issue 25, ADR 0009).
 */
const headerId = (value: string | undefined) => (value !== undefined && isUuid(value) ? value.toLowerCase() : undefined);

/** The request's correlation id: the client's `X-Request-Id` when it is a UUID, else a new one. */
export const requestIdOf = (req: express.Request): string => headerId(req.get("x-request-id")) ?? randomUUID();
