import { INVALID_SIGN_IN, type SignInAnswer } from "@etd/contract";
import { verifyNothing, verifyPassword } from "../auth/passwords.ts";
import { SESSION_COOKIE } from "../http/cookies.ts";
import { UNAUTHORIZED, type Handlers } from "../http/endpoint.ts";
import { fail, ok, withCookies, type Reply } from "../http/reply.ts";
import { tokenFromHeader } from "../auth/tokens.ts";
import type { Credential } from "../auth/credentials.ts";
import type { ApiDeps } from "../api-deps.ts";
import { changeOwnPassword, isAccountChanged } from "../commands/staff-accounts.ts";

export const SIGNED_OUT = "You have been signed out.";
export const ENTER_CODE = "Enter the 6-digit code from your authenticator app.";

/*
 * Sessions (docs/decisions/0008-sessions.md). Sign-in answers the token as the client has always
 * read it, and also sets it as the HttpOnly session cookie, which only header-less reads accept
 * (the live feed, document links). Sign-out revokes the session by its id and clears the cookie.
 */
const SESSION_COOKIE_PATH = "/";

/** HTTP 429 "<what> Please try again in N minutes.", N rounded up, at least 1. */
export const tryAgainLater = (what: string, waitMs: number) => {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return fail(429, `${what} Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
};

/** The answer to a sign-in this address may not try for `waitMs` more. */
export const tooManySignIns = (waitMs: number) => tryAgainLater("Too many failed sign-in attempts.", waitMs);

/** "Too many failed sign-in attempts…" when this address may not try this e-mail now, else undefined. */
export const throttled = async (deps: ApiDeps, email: string, ip: string) => {
  const waitMs = await deps.throttle.retryAfterMs(email, ip);
  return waitMs <= 0 ? undefined : tooManySignIns(waitMs);
};

/**
 * The sign-in answer as the client has always read it (token in jwtToken and data.accessToken,
 * and as the session cookie), after the password alone or after the second step. A member whose
 * role must use two-factor sign-in and has not set it up also reads `twoFactorSetupRequired`.
 */
export const signedIn = (deps: ApiDeps, credential: Credential) => {
  const user = { id: credential.staffId, name: credential.name, type: credential.role };
  const jwtToken = deps.tokens.issue(user, credential.sessionGeneration);
  const setupRequired = !credential.twoFactor && deps.requireTwoFactorFor.has(credential.role);
  const data: SignInAnswer = { accessToken: jwtToken, ...user, email: credential.email, ...(setupRequired ? { twoFactorSetupRequired: true } : {}) };
  return withSessionCookie(deps, ok("Login successful.", data, { jwtToken }), jwtToken);
};

/** The answer, setting the session cookie to the token it answers (a sign-in, or a session renewed). */
export const withSessionCookie = <T>(deps: ApiDeps, reply: Reply<T>, jwtToken: string): Reply<T> =>
  withCookies(reply, { name: SESSION_COOKIE, value: jwtToken, path: SESSION_COOKIE_PATH, maxAgeSeconds: deps.tokens.ttlSeconds });

export const authHandlers = (deps: ApiDeps) =>
  ({
    signIn: async ({ input, ip }) => {
      const email = input.email.trim();
      // Item 6: only this address's failures (on this account, or on all accounts) lock it out;
      // failures from elsewhere only slow the account down (auth/throttle.ts). The attempt counts
      // as a failure at once, in every API process, taken back if it succeeds, so that guesses sent
      // in parallel cannot all pass the limit before the first of them is counted.
      const attempt = await deps.throttle.attempt(email, ip);
      if (attempt.refused) return tooManySignIns(attempt.retryAfterMs);
      const credential = await deps.credentials.findByEmail(email);
      const valid = credential
        ? await verifyPassword(credential.passwordHash, input.password)
        : await verifyNothing(input.password);
      if (!credential || !valid) return fail(401, INVALID_SIGN_IN);
      if (credential.twoFactor) {
        // No token yet (issue 16). The attempt stays counted as a failure until the second step
        // succeeds: were a right password to clear the failures, someone holding it could sign in
        // again and again for fresh guesses at the code.
        const { challenges } = deps.twoFactor;
        const challenge = challenges.issue(credential.staffId, credential.sessionGeneration);
        return fail(200, ENTER_CODE, { secondStep: "totp", challenge, expiresInSeconds: challenges.ttlSeconds });
      }
      await deps.throttle.recordSuccess(email, ip);
      return signedIn(deps, credential);
    },
    userInfo: async ({ user }) => {
      const credential = await deps.credentials.findById(user.id);
      return ok("User info.", { ...user, email: credential?.email });
    },
    changePassword: async (context) => {
      const changed = await changeOwnPassword(deps, context, context.input.newPassword);
      return isAccountChanged(changed) ? ok("Password has been changed successfully. Please sign in again.") : changed;
    },
    signOut: async ({ req, user }) => {
      // The guard has just accepted this header's token, so it verifies; only its id and expiry
      // are read here. Like every command, sign-out takes the session from the header, never a cookie.
      const session = deps.tokens.verify(tokenFromHeader(req.get("authorization")) ?? "");
      if (!session) return fail(401, UNAUTHORIZED);
      await deps.sessions.revoke({ sessionId: session.sessionId, staffId: user.id, expiresAt: session.expiresAt });
      return withCookies(ok(SIGNED_OUT), { name: SESSION_COOKIE, value: undefined, path: SESSION_COOKIE_PATH, maxAgeSeconds: 0 });
    },
  }) satisfies Partial<Handlers>;
