import { ACCESS } from "@etd/contract/endpoints";
import { getDefaultStore } from "jotai";
import { queryClient } from "../lib/query-client.ts";
import { readYourWritesOf } from "../lib/api-client.ts";
import { clearStoredSession, readStoredSession, sessionAtom } from "../lib/session.ts";

/** Sign-out does not wait longer than this for the server: the tab is signed out either way. */
const SERVER_SIGN_OUT_WAIT_MS = 3_000;

/**
 * Ends the session (AUTH-6/7): in this tab at once (stored login, session state, every cached
 * answer), and on the server (ADR 0008: the session is revoked there, so its token and any open
 * live stream stop working, and the session cookie is cleared). `alreadyEnded` is for a 401: the
 * server has ended the session itself, there is nothing to revoke.
 *
 * Resolves when the server has answered (or after a short wait), so that a sign-in right after
 * cannot have its new session cookie cleared by this sign-out's late answer.
 */
export const signOut = ({ alreadyEnded = false }: { readonly alreadyEnded?: boolean } = {}): Promise<void> => {
  const session = readStoredSession();
  clearStoredSession();
  getDefaultStore().set(sessionAtom, undefined);
  queryClient.clear();
  readYourWritesOf(queryClient).forget();
  if (!session || alreadyEnded) return Promise.resolve();
  // Not callApi: the stored session is already gone, and the request must outlive a closing tab (keepalive).
  const revoked = fetch(`/api${ACCESS.signOut.path}`, { method: "POST", headers: { authorization: session.accessToken }, keepalive: true }).then(
    () => undefined,
    // Unreachable server: the token stays valid until it expires, but this tab no longer holds it.
    () => undefined,
  );
  return Promise.race([revoked, new Promise<void>((resolve) => setTimeout(resolve, SERVER_SIGN_OUT_WAIT_MS))]);
};
