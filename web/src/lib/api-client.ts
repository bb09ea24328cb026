import { clearStoredSession, readStoredSession } from "./session.ts";

/*
 * The one way the app talks to the server (000 §7, CROSS-1): JSON under /api, the stored token in
 * `Authorization` with no prefix, the envelope `{status, message, data}` returned as the server
 * sent it (never thrown), so every screen shows what the server answered. A 401 ends the session
 * and returns to sign-in (AUTH-7).
 */

export interface Envelope<T = unknown> {
  readonly status: 0 | 1;
  readonly message: string;
  readonly data: T;
  readonly [key: string]: unknown;
}

/** Called on a 401 (set by the app shell: clears the session atom and navigates to `/`). */
let onUnauthorized: (message: string) => void = () => {
  clearStoredSession();
  window.location.assign("/");
};

export const setUnauthorizedHandler = (handler: (message: string) => void): void => {
  onUnauthorized = handler;
};

/** The position of the last command this tab ran: queries wait for it (read-your-writes). */
let lastPosition: string | undefined;

export const rememberPosition = (position: unknown): void => {
  if (typeof position === "string" && /^\d+\.\d+$/.test(position)) lastPosition = position;
};

export interface RequestOptions {
  readonly body?: unknown;
  readonly form?: FormData;
  readonly signal?: AbortSignal;
}

export const apiRequest = async <T = unknown>(method: "GET" | "POST" | "PUT", path: string, options: RequestOptions = {}): Promise<Envelope<T>> => {
  const session = readStoredSession();
  const headers: Record<string, string> = {};
  if (session) headers.authorization = session.accessToken;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (method === "GET" && lastPosition) headers["x-read-after"] = lastPosition;
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
  if (body.status === 1) rememberPosition((body.data as { position?: unknown } | undefined)?.position);
  return body;
};
