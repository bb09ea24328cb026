import * as Schema from "effect/Schema";
import { SIGN_IN_EXPIRED } from "../answers.ts";
import { BLANK_PASSWORD, MAX_PASSWORD_LENGTH } from "../rules.ts";
import { EMPTY_OR_NOT_BLANK, emptyOrAtLeast, matches, maxCharacters, NOT_BLANK } from "@etd/events/checks";
import { requiredEmail, requiredText } from "./fields.ts";

/** AUTH-2/3: the sign-in form's rules and messages. */
export const LoginRequest = Schema.Struct({
  email: requiredEmail("Email Address is required", "Invalid email address"),
  password: requiredText("Password is required", MAX_PASSWORD_LENGTH),
});

/** AUTH-8: the new password's rules and messages. */
export const ChangePasswordRequest = Schema.Struct({
  newPassword: Schema.String.check(
    Schema.isMinCodePoints(1, { message: "Please enter your New Password." }),
    matches(EMPTY_OR_NOT_BLANK, BLANK_PASSWORD),
    emptyOrAtLeast(6, "New Password must be at least 6 characters."),
    maxCharacters(MAX_PASSWORD_LENGTH, `New Password must be at most ${MAX_PASSWORD_LENGTH} characters.`),
  ).pipe(Schema.annotateKey({ messageMissingKey: "Please enter your New Password." })),
});

/** Sign-out takes no fields. */
export const LogoutRequest = Schema.Struct({});

/*
 * Two-factor sign-in (AUTH-3, issue 16). The second step sends the challenge sign-in answered with
 * either the authenticator's code or one recovery code; the handler refuses both or neither.
 */
const CODE = Schema.String.check(
  matches(NOT_BLANK, "Please enter the 6-digit code."),
  maxCharacters(32, "That code is not valid. Please try again."),
);

export const TwoFactorLoginRequest = Schema.Struct({
  challenge: requiredText(SIGN_IN_EXPIRED, 2000),
  code: Schema.optionalKey(CODE),
  recoveryCode: Schema.optionalKey(
    Schema.String.check(matches(NOT_BLANK, "Please enter a recovery code."), maxCharacters(64, "That recovery code is not valid.")),
  ),
});

/**
 * Setup takes no fields: each call replaces the secret being set up. An empty Struct lets any key
 * through, so the check is explicit: a client must not think it chose the secret.
 */
export const TwoFactorSetupRequest = Schema.Struct({}).check(
  Schema.makeFilter((body: object) => Object.keys(body).length === 0 || "Setup takes no fields.", {
    // The endpoint reads only a JSON object (two-factor-routes.ts): the body is `{}`.
    toJsonSchema: () => ({ type: "object", maxProperties: 0 }),
  }),
);

export const TwoFactorEnableRequest = Schema.Struct({
  code: CODE.pipe(Schema.annotateKey({ messageMissingKey: "Please enter the 6-digit code." })),
});
