import { Result, Schema } from "effect";
import { hashPassword, verifyNothing, verifyPassword } from "../auth/passwords.ts";
import type { Endpoint } from "../http/endpoint.ts";
import { requiredEmail, requiredText } from "../http/fields.ts";
import { decodeInput, fail, ok } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { runStaffCommand } from "../commands/staff-accounts.ts";

/** AUTH-2/3: the sign-in form's rules and messages. */
export const LoginRequest = Schema.Struct({
  email: requiredEmail("Email Address is required", "Invalid email address"),
  password: requiredText("Password is required", 200),
});

/** AUTH-8: the new password's rules and messages. */
export const ChangePasswordRequest = Schema.Struct({
  newPassword: Schema.String.check(
    Schema.makeFilter((s: string) => s.length > 0 || "Please enter your New Password."),
    Schema.makeFilter((s: string) => s.length === 0 || s.length >= 6 || "New Password must be at least 6 characters."),
    Schema.isMaxLength(200, { message: "New Password must be at most 200 characters." }),
  ).pipe(Schema.annotateKey({ messageMissingKey: "Please enter your New Password." })),
});

export const INVALID_LOGIN = "Invalid email or password.";

export const authEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "post",
    path: "/admin/admin-login",
    guard: "public",
    summary: "Sign in (AUTH-3): answers the session token as jwtToken and in data.accessToken",
    body: LoginRequest,
    handle: async ({ req, ip }) => {
      const input = decodeInput(LoginRequest, req.body);
      if (Result.isFailure(input)) return input.failure;
      const email = input.success.email.trim();
      const waitMs = deps.throttle.retryAfterMs(email, ip);
      if (waitMs > 0) {
        const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
        return fail(429, `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
      }
      const credential = await deps.credentials.findByEmail(email);
      const valid = credential
        ? await verifyPassword(credential.passwordHash, input.success.password)
        : await verifyNothing(input.success.password);
      if (!credential || !valid) {
        deps.throttle.recordFailure(email, ip);
        return fail(401, INVALID_LOGIN);
      }
      deps.throttle.recordSuccess(email);
      const user = { id: credential.staffId, name: credential.name, type: credential.role };
      const jwtToken = deps.tokens.issue(user, credential.sessionGeneration);
      return ok("Login successful.", { accessToken: jwtToken, ...user, email: credential.email }, { jwtToken });
    },
  },
  {
    method: "get",
    path: "/user_info",
    guard: "session.read",
    summary: "The signed-in staff member (AUTH-9)",
    handle: async ({ user }) => {
      const credential = await deps.credentials.findById(user!.id);
      return ok("User info.", { ...user!, email: credential?.email });
    },
  },
  {
    method: "post",
    path: "/admin/change-password",
    guard: "password.change",
    summary: "Change the signed-in member's password; every session of theirs ends (AUTH-8)",
    body: ChangePasswordRequest,
    handle: async (context) => {
      const input = decodeInput(ChangePasswordRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const staffId = context.user!.id;
      const outcome = await runStaffCommand(deps, context, { type: "ChangePassword", staffId });
      if (outcome) return outcome;
      await deps.credentials.setPassword(staffId, await hashPassword(input.success.newPassword));
      return ok("Password has been changed successfully. Please sign in again.");
    },
  },
];
