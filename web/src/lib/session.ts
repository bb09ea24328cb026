import { atomWithLazy } from "jotai/utils";
import { ROLES, type Role } from "@etd/contract";

/*
 * The stored session (000 §3, AUTH-4): local storage key `user` holds `{accessToken, …}` as the
 * sign-in answered it. Name and role are read from the token's payload `{user: {id, name, type}}`;
 * a value that is not a valid token signs the user out cleanly.
 */

/** The contract's roles (000 §6). */
export type { Role };

export interface Session {
  readonly accessToken: string;
  readonly id: string;
  readonly name: string;
  readonly role: Role;
}

const STORAGE_KEY = "user";

/** The token's payload, or undefined when it is not a token this app understands or has expired. */
export const decodeToken = (token: string): Omit<Session, "accessToken"> | undefined => {
  try {
    const payload = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as {
      user?: { id?: unknown; name?: unknown; type?: unknown };
      exp?: unknown;
    };
    const user = payload.user;
    if (typeof user?.id !== "string" || typeof user.name !== "string" || typeof user.type !== "string" || !(ROLES as readonly string[]).includes(user.type)) return undefined;
    if (typeof payload.exp === "number" && payload.exp * 1000 < Date.now()) return undefined;
    return { id: user.id, name: user.name, role: user.type as Role };
  } catch {
    return undefined;
  }
};

export const readStoredSession = (): Session | undefined => {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (!stored) return undefined;
  try {
    const value = JSON.parse(stored) as { accessToken?: unknown };
    const token = typeof value === "string" ? value : typeof value.accessToken === "string" ? value.accessToken : undefined;
    const decoded = token ? decodeToken(token) : undefined;
    if (token && decoded) return { accessToken: token, ...decoded };
  } catch {
    // not JSON: fall through to signing out
  }
  localStorage.removeItem(STORAGE_KEY);
  return undefined;
};

export const storeSession = (data: Record<string, unknown> & { accessToken: string }): void => {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(data));
};

/** The same member's session goes on under a new token (enrolment in two-factor sign-in ends the old one). */
export const renewStoredSession = (accessToken: string): void => {
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
  } catch {
    stored = null;
  }
  storeSession({ ...(typeof stored === "object" && stored !== null ? stored : {}), accessToken });
};

export const clearStoredSession = (): void => {
  localStorage.removeItem(STORAGE_KEY);
};

/**
 * The signed-in staff member, or undefined. UI state only: the server decides what they may do.
 * Read from storage when first used, not when the module loads, so rules that import the app's
 * modules stay testable without a browser.
 */
export const sessionAtom = atomWithLazy<Session | undefined>(readStoredSession);
