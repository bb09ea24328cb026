import * as Schema from "effect/Schema";
import { BLANK_PASSWORD, CAPACITY_MESSAGE, MAX_CAPACITY, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH } from "../rules.ts";
import { ROLES, type Role } from "../vocabulary.ts";
import { EMPTY_OR_NOT_BLANK, emptyOrAtLeast, matches, maxCharacters, oneOf } from "@etd/events/checks";
import { requiredEmail, requiredText } from "./fields.ts";

/* Manage Team (ADMIN-1): the forms' rules and messages. */

const TypeField = Schema.String.check(oneOf<string>(ROLES, "Please select type.")).pipe(Schema.annotateKey({ messageMissingKey: "Please select type." }));

/** Only after the type field has checked it. */
export const roleOf = (type: string): Role => type as Role;

const NAME = requiredText("Please enter your name.", MAX_NAME_LENGTH);
const EMAIL = requiredEmail("Please enter your email.", "Please enter a valid email.");
const PASSWORD_RULES = [
  Schema.isMinCodePoints(1, { message: "Please enter your password." }),
  // Sign-in refuses a blank password as missing, so one could be set but never used.
  matches(EMPTY_OR_NOT_BLANK, BLANK_PASSWORD),
  emptyOrAtLeast(6, "Password must be at least 6 characters."),
  maxCharacters(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`),
] as const;

export const AddTeamMemberRequest = Schema.Struct({
  name: NAME,
  email: EMAIL,
  password: Schema.String.check(...PASSWORD_RULES).pipe(Schema.annotateKey({ messageMissingKey: "Please enter your password." })),
  type: TypeField,
});

/** The edit form may leave the password empty: the member keeps the one they have. */
export const UpdateTeamMemberRequest = Schema.Struct({
  tmId: requiredText("Please choose a team member.", 64),
  name: NAME,
  email: EMAIL,
  password: Schema.optionalKey(Schema.String.check(PASSWORD_RULES[1], PASSWORD_RULES[2], PASSWORD_RULES[3])),
  type: TypeField,
});

export const DeleteTeamMemberRequest = Schema.Struct({
  teamMemberId: Schema.Union([Schema.String, Schema.Int]).pipe(
    Schema.annotateKey({ messageMissingKey: "Please choose a team member." }),
  ),
});

/** Manage Team sets a member's capacity (issue 27): the most open assigned orders; null is no limit. */
export const SetTeamMemberCapacityRequest = Schema.Struct({
  tmId: requiredText("Please choose a team member.", 64),
  capacity: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_CAPACITY }, { message: CAPACITY_MESSAGE }))).pipe(
    Schema.annotateKey({ messageMissingKey: CAPACITY_MESSAGE }),
  ),
});

/** An Admin resets a member's two-factor sign-in (issue 16). */
export const ResetTwoFactorRequest = Schema.Struct({
  id: requiredText("Please choose a team member.", 64),
});
