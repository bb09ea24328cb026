import type { Envelope } from "@etd/contract";
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

const TWO_FACTOR_REQUIRED = "Two-factor sign-in is required for your role.";

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
  if (response.status === 403 && session && typeof body.message === "string" && body.message.startsWith(TWO_FACTOR_REQUIRED)) onTwoFactorRequired();
  return body;
};
