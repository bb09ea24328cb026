import type { QueryClient, QueryFunctionContext } from "@tanstack/react-query";
import { TWO_FACTOR_REQUIRED, type Envelope } from "@etd/contract";
import type { BodyOf, DataOf, EndpointDeclaration, PathOf, QueryOf, SchemaName } from "@etd/contract/endpoints";
import { isProjection, PROJECTIONS, queryKeys, type Projection } from "./query-keys.ts";
import { clearStoredSession, readStoredSession } from "./session.ts";

/*
 * The one way the app talks to the server (000 §7, CROSS-1): JSON under /api, the stored token in
 * `Authorization` with no prefix, the envelope `{status, message, data}` returned as the server
 * sent it (never thrown), so every screen shows what the server answered. A 401 ends the session
 * and returns to sign-in (AUTH-7). The position a command answers and the `X-Read-After` a later
 * query sends are part of the same conversation, so read-your-writes is here too (below).
 */

/** Every answer's envelope, the contract's. */
export type { Envelope };

/** Called on a 401 (set by the app shell: clears the session atom and navigates to `/`). */
let onUnauthorized: (message: string) => void = () => {
  clearStoredSession();
  window.location.assign("/");
};

export const setUnauthorizedHandler = (handler: (message: string) => void): void => {
  onUnauthorized = handler;
};

/**
 * Called on the 403 a member gets while their role requires two-factor sign-in that they have not
 * set up (issue 16 part A; set by the app shell: shows only the setup page).
 */
let onTwoFactorRequired: () => void = () => undefined;

export const setTwoFactorRequiredHandler = (handler: () => void): void => {
  onTwoFactorRequired = handler;
};

export interface RequestOptions {
  readonly body?: unknown;
  readonly form?: FormData;
  readonly signal?: AbortSignal;
  /**
   * A query's `X-Read-After`: the position of this tab's command that the read model it reads must
   * have applied first (read-your-writes, below, computes it).
   */
  readonly readAfter?: string | undefined;
}

export const apiRequest = async <T = unknown>(method: "GET" | "POST" | "PUT", path: string, options: RequestOptions = {}): Promise<Envelope<T>> => {
  const session = readStoredSession();
  const headers: Record<string, string> = {};
  if (session) headers.authorization = session.accessToken;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.readAfter) headers["x-read-after"] = options.readAfter;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return { status: 0, message: "The server could not be reached. Please check your connection.", data: undefined as T };
  }
  const body = (await response.json().catch(() => ({ status: 0, message: `The server answered ${response.status}.`, data: undefined }))) as Envelope<T>;
  // Only for the session still signed in: a request sent before a sign-out (a refetch racing a
  // password change) must not sign out, or scold, whoever uses the tab now.
  if (response.status === 401 && session && readStoredSession()?.accessToken === session.accessToken) onUnauthorized(body.message);
  // The contract's message, which the server answers from the same constant: reworded, it changes on both sides.
  if (response.status === 403 && session && body.message === TWO_FACTOR_REQUIRED) onTwoFactorRequired();
  return body;
};

/** What a call of a declared endpoint sends: its path parameters, query, body or form, as it declares them. */
export type CallOf<E extends EndpointDeclaration> = (E["params"] extends SchemaName ? { readonly params: PathOf<E> } : unknown) &
  (E["query"] extends SchemaName ? { readonly query: QueryOf<E> } : unknown) &
  (E["body"] extends SchemaName ? { readonly body: BodyOf<E> } : unknown) &
  (E["form"] extends object ? { readonly form: FormData } : unknown);

type AnyCall = { readonly params?: object; readonly query?: object; readonly body?: unknown; readonly form?: FormData };

/** The path with its parameters filled in, and the query string. */
export const urlOf = (endpoint: EndpointDeclaration, call: AnyCall): string => {
  const params = (call.params ?? {}) as Record<string, unknown>;
  const path = endpoint.path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return search === "" ? path : `${path}?${search}`;
};

/**
 * Calls a declared endpoint (@etd/contract/endpoints): its method and path, what it sends typed by
 * the declaration, and its answer's `data` typed too. No hand-written glue per operation.
 */
export const callApi = <E extends EndpointDeclaration>(
  endpoint: E,
  call: CallOf<E>,
  options: Pick<RequestOptions, "signal" | "readAfter"> = {},
): Promise<Envelope<DataOf<E> | null>> => {
  const { body, form } = call as AnyCall;
  const method = endpoint.method.toUpperCase() as "GET" | "POST" | "PUT";
  return apiRequest<DataOf<E> | null>(method, urlOf(endpoint, call as AnyCall), { ...options, ...(form ? { form } : body !== undefined ? { body } : {}) });
};

/*
 * Read-your-writes (DESIGN §1, issue 10 item 6), per tab and per read model. A command answers
 * the log position of its last event; until a read model is known to have applied it, a query
 * that reads that read model sends it as `X-Read-After`, and the server holds the answer until
 * that read model (only that one: Endpoint.reads) has caught up.
 *
 * - Only this tab's commands count: the state belongs to the tab's QueryClient (one per page
 *   load), never to a module, so another tab's or a test's client starts clean.
 * - Only the read models the command changes wait: those it refreshes after it ran (the same
 *   list that it invalidates, see `refetchAfterCommand`), and only until the live feed says the
 *   read model has applied the position; after that, queries go out without the header.
 */

const POSITION = /^\d+\.\d+$/;

/** Log positions "tx.seq", compared as the pair of integers they are. */
export const comparePositions = (a: string, b: string): number => {
  const [aTx, aSeq] = a.split(".").map(BigInt) as [bigint, bigint];
  const [bTx, bSeq] = b.split(".").map(BigInt) as [bigint, bigint];
  return aTx === bTx ? (aSeq === bSeq ? 0 : aSeq < bSeq ? -1 : 1) : aTx < bTx ? -1 : 1;
};

export interface ReadYourWrites {
  /** A command of this tab answered `position`; `projections` are the read models it changes. */
  wrote(position: unknown, projections: readonly Projection[]): void;
  /** The live feed says `projection` has applied everything up to `position`. */
  applied(projection: Projection, position: string): void;
  /** What a query reading `projections` must send as X-Read-After, or undefined: nothing to wait for. */
  readAfter(projections: readonly Projection[]): string | undefined;
  /** Sign-out: the next member starts with nothing to wait for. */
  forget(): void;
}

export const createReadYourWrites = (): ReadYourWrites => {
  /** Per read model, the latest position of this tab's commands that it is not known to have applied. */
  const pending = new Map<Projection, string>();
  const later = (a: string | undefined, b: string) => (a === undefined || comparePositions(b, a) > 0 ? b : a);
  return {
    wrote: (position, projections) => {
      if (typeof position !== "string" || !POSITION.test(position)) return;
      for (const projection of projections) pending.set(projection, later(pending.get(projection), position));
    },
    applied: (projection, position) => {
      const waiting = pending.get(projection);
      if (waiting !== undefined && POSITION.test(position) && comparePositions(position, waiting) >= 0) pending.delete(projection);
    },
    readAfter: (projections) => {
      let latest: string | undefined;
      for (const projection of projections) {
        const waiting = pending.get(projection);
        if (waiting !== undefined) latest = later(latest, waiting);
      }
      return latest;
    },
    forget: () => pending.clear(),
  };
};

const perClient = new WeakMap<QueryClient, ReadYourWrites>();

/** The read-your-writes state of the tab that owns this query client. */
export const readYourWritesOf = (client: QueryClient): ReadYourWrites => {
  let state = perClient.get(client);
  if (!state) {
    state = createReadYourWrites();
    perClient.set(client, state);
  }
  return state;
};

/**
 * The request options of a query function: its abort signal and, when this tab has written to
 * the read model the query reads (its key's first element, see query-keys.ts), the position to
 * read after. A key that names no read model waits for all of them.
 */
export const queryRequest = ({ client, queryKey, signal }: Pick<QueryFunctionContext, "client" | "queryKey" | "signal">) => {
  const readAfter = readYourWritesOf(client).readAfter(isProjection(queryKey[0]) ? [queryKey[0]] : PROJECTIONS);
  return readAfter === undefined ? { signal } : { signal, readAfter };
};

/**
 * After a command this tab ran: the read models it changes (its declaration's `changes`) wait for
 * its position, and every query reading them is fetched again (so what the screen shows next
 * includes the change). Answers that refused part of the work may still carry a position: whatever
 * was done counts.
 */
export const refetchAfterCommand = async (client: QueryClient, answer: Envelope, command: Pick<EndpointDeclaration, "changes">): Promise<void> => {
  const projections = command.changes ?? [];
  readYourWritesOf(client).wrote((answer.data as { position?: unknown } | null | undefined)?.position, projections);
  await Promise.all(projections.map((projection) => client.invalidateQueries({ queryKey: queryKeys[projection] })));
};
