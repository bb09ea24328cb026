import { getDefaultStore } from "jotai";
import { queryClient } from "../lib/query-client.ts";
import { clearStoredSession, sessionAtom } from "../lib/session.ts";

/** Ends the session in this tab (AUTH-6/7): stored login, session state and every cached answer. */
export const signOut = (): void => {
  clearStoredSession();
  getDefaultStore().set(sessionAtom, undefined);
  queryClient.clear();
};
