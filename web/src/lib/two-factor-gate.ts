import { atom, getDefaultStore } from "jotai";

/*
 * The two-factor gate (issue 16 part A): a member whose role must use two-factor sign-in but who
 * has not set it up yet may use the "Two-factor sign-in" page only. The server refuses every
 * other staff call with a 403 (the contract's TWO_FACTOR_REQUIRED, caught in lib/api-client.ts);
 * the app shows only that page meanwhile, so nobody meets a screen full of refusals.
 *
 * It closes when sign-in answers `twoFactorSetupRequired` and whenever the API answers that 403
 * (REQUIRE_2FA_FOR changed under a signed-in member), and opens when enrolment is confirmed. It
 * is kept in the stored login (local storage `user`, AUTH-4: sign-in stores its whole `data`
 * there, flag included), so a reload or an address typed by hand stays behind it.
 *
 * Shared state, so in lib/: sign-in (auth) closes it, the shell and the routes read it, the
 * two-factor page opens it.
 */

/** AUTH-4's key. */
const STORAGE_KEY = "user";
const FLAG = "twoFactorSetupRequired";

const readStored = (): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const storedFlag = (): boolean => readStored()?.[FLAG] === true;

/** Whether the signed-in member must set up two-factor sign-in before anything else. */
export const twoFactorGateAtom = atom<boolean>(storedFlag());

const store = getDefaultStore();

/** Closes or opens the gate, in this tab and in the stored login (when there is one). */
export const setTwoFactorGate = (closed: boolean): void => {
  const stored = readStored();
  if (stored) {
    const { [FLAG]: _previous, ...rest } = stored;
    localStorage.setItem(STORAGE_KEY, JSON.stringify(closed ? { ...rest, [FLAG]: true } : rest));
  }
  store.set(twoFactorGateAtom, closed);
};

/** The gate as it stands now: the stored login decides (another tab may have finished enrolment). */
export const twoFactorGateClosed = (): boolean => {
  const closed = storedFlag();
  if (store.get(twoFactorGateAtom) !== closed) store.set(twoFactorGateAtom, closed);
  return closed;
};
