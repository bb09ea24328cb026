import { Schema } from "effect";
import { BLANK_PASSWORD, MAX_PASSWORD_LENGTH } from "../rules.ts";
import { requiredEmail, requiredText } from "./fields.ts";

/** AUTH-2/3: the sign-in form's rules and messages. */
export const LoginRequest = Schema.Struct({
  email: requiredEmail("Email Address is required", "Invalid email address"),
  password: requiredText("Password is required", MAX_PASSWORD_LENGTH),
});

/** AUTH-8: the new password's rules and messages. */
export const ChangePasswordRequest = Schema.Struct({
  newPassword: Schema.String.check(
    Schema.makeFilter((s: string) => s.length > 0 || "Please enter your New Password."),
    Schema.makeFilter((s: string) => s.length === 0 || s.trim().length > 0 || BLANK_PASSWORD),
    Schema.makeFilter((s: string) => s.length === 0 || s.length >= 6 || "New Password must be at least 6 characters."),
    Schema.isMaxLength(MAX_PASSWORD_LENGTH, { message: `New Password must be at most ${MAX_PASSWORD_LENGTH} characters.` }),
  ).pipe(Schema.annotateKey({ messageMissingKey: "Please enter your New Password." })),
});

/** Sign-out takes no fields. */
export const LogoutRequest = Schema.Struct({});
