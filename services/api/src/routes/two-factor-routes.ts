import * as Result from "effect/Result";
import type { Query } from "@etd/event-store";
import type { StaffId } from "@etd/events";
import { SIGN_IN_EXPIRED, TEAM_MEMBER_NOT_FOUND, type TwoFactorSetup, type TwoFactorStatus } from "@etd/contract";
import { TwoFactorSetupRequest } from "@etd/contract/requests";
import { newTotpSecret, otpauthUrl, qrCodeDataUrl } from "../auth/two-factor.ts";
import { readingInput, UNAUTHORIZED, type Handlers } from "../http/endpoint.ts";
import { decodeInput, fail, ok } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import type { CodeRefusal } from "../auth/two-factor-challenge.ts";
import {
  ALREADY_SET_UP,
  CHALLENGE_SPENT,
  CODE_NOT_VALID,
  enableTwoFactor,
  isAccountChanged,
  RECOVERY_CODE_NOT_VALID,
  resetTwoFactor,
  storePendingSecret,
  useRecoveryCode,
  useTotpCode,
} from "../commands/staff-accounts.ts";
import { signedIn, throttled, tooManySignIns, tryAgainLater, withSessionCookie } from "./auth-routes.ts";

/*
 * Two-factor sign-in (AUTH-3, issue 16, ADR 0024): the second step of sign-in, the member's own
 * setup, and the Admin's reset. The setup endpoints stay open to a member whose role requires the
 * second factor before they have it (`beforeTwoFactor`): they are how that member gets it.
 */

export const CODE_ALREADY_USED = "That code has already been used. Please wait for the next one.";
export const TOO_MANY_WRONG_CODES = "Too many wrong codes.";
export const TWO_FACTOR_ON = "Two-factor sign-in is on. You have been signed out everywhere else.";

const isStaffId = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);

export const twoFactorHandlers = (deps: ApiDeps) =>
  ({
    signInSecondStep: async ({ input, ip, requestId }) => {
      const { challenges } = deps.twoFactor;
      const challenge = challenges.verify(input.challenge.trim());
      if (!challenge) return fail(401, SIGN_IN_EXPIRED);
      const credential = await deps.credentials.findById(challenge.staffId);
      // A password changed, the member deleted or their factor reset since the password was right.
      if (!credential || !credential.twoFactor || credential.sessionGeneration !== challenge.sessionGeneration) return fail(401, SIGN_IN_EXPIRED);
      const code = input.code?.trim();
      const recoveryCode = input.recoveryCode?.trim();
      if ((code === undefined) === (recoveryCode === undefined)) return fail(400, "Please enter either the 6-digit code or a recovery code.");

      // Wrong codes count like wrong passwords, for this e-mail and address (auth/throttle.ts),
      // counted before the check so that parallel guesses cannot all pass the limit; and in the
      // database, per challenge and per member, so that neither more processes nor more addresses
      // buy more guesses (auth/two-factor-challenge.ts).
      const locked = await throttled(deps, credential.email, ip);
      if (locked) return locked;
      // The trace of a refused code: a counter for alerts, and a line naming the member and the
      // address, never the code (a near miss would tell a reader of the log too much).
      const refuse = (reason: CodeRefusal) => {
        challenges.refusedCodes.inc(reason);
        console.warn(`Two-factor sign-in: code refused (${reason}) for staff member ${credential.staffId} from ${ip}, request ${requestId}`);
      };
      const counted = await deps.credentials.challenges.attempt(challenge, deps.now());
      if (counted.kind === "limited") {
        refuse("account_limit");
        return tryAgainLater(TOO_MANY_WRONG_CODES, counted.retryAfterMs);
      }
      if (counted.kind === "spent") return fail(401, SIGN_IN_EXPIRED);
      // Checked again as it is counted: a guess sent in parallel may have reached the limit since.
      const attempt = await deps.throttle.attempt(credential.email, ip);
      if (attempt.refused) return tooManySignIns(attempt.retryAfterMs);

      // Spent where the code is accepted: of two right codes on one challenge, one signs in.
      const claim = (query: Query) => deps.credentials.challenges.claim(query, challenge);
      if (code !== undefined) {
        const used = await useTotpCode(deps, credential.staffId, code, claim);
        if (used === CHALLENGE_SPENT) return fail(401, SIGN_IN_EXPIRED);
        if (used === "invalid") {
          refuse("wrong_code");
          return fail(401, CODE_NOT_VALID);
        }
        if (used === "reused") {
          refuse("used_code");
          return fail(401, CODE_ALREADY_USED);
        }
      } else {
        const caller = { user: { id: credential.staffId, name: credential.name, type: credential.role }, requestId, ip };
        const used = await useRecoveryCode(deps, caller, recoveryCode!, claim);
        if (used === CHALLENGE_SPENT) return fail(401, SIGN_IN_EXPIRED);
        if (!isAccountChanged(used)) {
          if (used.httpStatus !== 401) return used;
          refuse("wrong_recovery_code");
          return fail(401, RECOVERY_CODE_NOT_VALID);
        }
      }
      await deps.throttle.recordSuccess(credential.email, ip);
      return signedIn(deps, credential);
    },
    twoFactorStatus: async ({ user }) => {
      const status = await deps.credentials.twoFactorStatus(user.id);
      if (!status) return fail(401, UNAUTHORIZED);
      const answer: TwoFactorStatus = { ...status, required: deps.requireTwoFactorFor.has(user.type) };
      return ok("Two-factor sign-in.", answer);
    },
    startTwoFactorSetup: readingInput(
      // Nothing to send, but a JSON object must be sent: a request without a body, or with another
      // kind of body, is refused like any command's (R5), rather than read as "start again".
      // (The JSON parser reads an empty body as {} too, so the body's length is looked at.)
      (req) =>
        (Number(req.get("content-length")) > 0 || req.get("transfer-encoding") !== undefined) &&
        typeof req.body === "object" && req.body !== null && !Array.isArray(req.body)
          ? decodeInput(TwoFactorSetupRequest, req.body)
          : Result.fail(fail(400, "Setup takes a JSON body: {}.")),
      async ({ user }) => {
        const credential = await deps.credentials.findById(user.id);
        if (!credential) return fail(401, UNAUTHORIZED);
        if (credential.twoFactor) return fail(409, ALREADY_SET_UP);
        const secret = newTotpSecret();
        await storePendingSecret(deps, user.id, secret);
        const url = otpauthUrl(secret, credential.email);
        const answer: TwoFactorSetup = { secret, otpauthUrl: url, qrCode: qrCodeDataUrl(url) };
        return ok("Scan the QR code with your authenticator app, then enter the code it shows.", answer);
      },
    ),
    enableTwoFactor: async (context) => {
      const enabled = await enableTwoFactor(deps, context, context.input.code);
      if (!("ok" in enabled)) return enabled;
      const accessToken = deps.tokens.issue(context.user, enabled.sessionGeneration);
      const answer = { recoveryCodes: enabled.recoveryCodes, accessToken, position: enabled.position ?? null };
      return withSessionCookie(deps, ok(TWO_FACTOR_ON, answer), accessToken);
    },
    resetTwoFactor: async (context) => {
      const staffId = context.input.id.trim();
      if (!isStaffId(staffId)) return fail(404, TEAM_MEMBER_NOT_FOUND);
      const reset = await resetTwoFactor(deps, context, staffId as StaffId);
      return isAccountChanged(reset) ? ok("Two-factor sign-in has been reset.", { position: reset.position ?? null }) : reset;
    },
  }) satisfies Partial<Handlers>;
