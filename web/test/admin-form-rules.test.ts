import { ChangePasswordRequest, UpdateTeamMemberRequest } from "@etd/contract/requests";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import { validateNewPassword, validateTeamMember } from "../src/features/admin/utils/form-rules.ts";

/*
 * ADMIN-1, AUTH-8: a form's limits are the server's. Both count characters (code points), so
 * text of characters outside the Basic Multilingual Plane ("😀": two UTF-16 units) gets the same
 * verdict before sending as on arrival.
 */

const serverAccepts = (schema: Schema.Top, body: unknown) => Result.isSuccess(Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)(body, { errors: "all" }));

describe("the admin forms count characters as the API does (ADMIN-1, AUTH-8)", () => {
  const member = { name: "Ana", email: "ana@example.com", password: "", type: "Team" };

  it.each([
    ["three emoji: 6 UTF-16 units, 3 characters", "😀".repeat(3)],
    ["six emoji", "😀".repeat(6)],
    ["200 emoji: 400 UTF-16 units", "😀".repeat(200)],
    ["201 emoji", "😀".repeat(201)],
  ])("a new password of %s", (_label, password) => {
    const formAccepts = Object.keys(validateNewPassword({ newPassword: password })).length === 0;
    expect(formAccepts).toBe(serverAccepts(ChangePasswordRequest, { newPassword: password }));
  });

  it.each([
    ["150 emoji: 300 UTF-16 units", "😀".repeat(150)],
    ["201 emoji", "😀".repeat(201)],
  ])("a name of %s", (_label, name) => {
    const formAccepts = validateTeamMember({ ...member, name }, true).name === undefined;
    expect(formAccepts).toBe(serverAccepts(UpdateTeamMemberRequest, { ...member, name, tmId: "00000000-0000-4000-8000-000000000001" }));
  });
});
