import { TWO_FACTOR_REQUIRED, type Envelope } from "@etd/contract";
import type { BodyOf, DataOf, EndpointDeclaration, PathOf, QueryOf, SchemaName } from "@etd/contract/endpoints";
import { clearStoredSession, readStoredSession } from "./session.ts";

/*
 * The one way the app talks to the server (000 §7, CROSS-1): JSON under /api, the stored token in
 * `Authorization` with no prefix, the envelope `{status, message, data}` returned as the server
 * sent it (never thrown), so every screen shows what the server answered. A 401 ends the session
 * and returns to sign-in (AUTH-7).
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
   * have applied first (read-your-writes; see read-your-writes.ts, which computes it).
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
