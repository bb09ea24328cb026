import { StaffId } from "@etd/events";
import { describe, expect, it } from "vitest";
import {
  type AddStaffMember,
  foldEvents,
  type NewStaffEvent,
  staffDecider,
  type UpdateStaffMember,
} from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { MARIA, PAOLO, staffMetadata } from "../support/metadata.ts";
import { storedEvent } from "../support/order-fixtures.ts";

const spec = specFor(staffDecider);

const PAOLO_ID = PAOLO.id;

const profile = { staffId: PAOLO_ID, name: "Paolo Reyes", email: "paolo@etd.example", role: "Night Staff" } as const;

const add: AddStaffMember = { type: "AddStaffMember", ...profile };
const update = (changes: Partial<UpdateStaffMember> = {}): UpdateStaffMember => ({
  type: "UpdateStaffMember",
  ...profile,
  ...changes,
});

const added = () => storedEvent("StaffMemberAdded", profile, staffMetadata(MARIA));
const deleted = () => storedEvent("StaffMemberDeleted", { staffId: PAOLO_ID }, staffMetadata(MARIA));
const passwordChanged = () =>
  storedEvent("PasswordChanged", { staffId: PAOLO_ID }, staffMetadata(PAOLO, "2025-03-14T18:00:00.000Z"));

describe("ADMIN-1 adding a team member", () => {
  it("adds the member with name, e-mail and type", () => {
    spec.given([]).when(add).then([{ type: "StaffMemberAdded", data: profile }]);
  });

  it("trims the name and e-mail as typed", () => {
    spec
      .given([])
      .when({ ...add, name: "  Paolo Reyes ", email: " paolo@etd.example " })
      .then([{ type: "StaffMemberAdded", data: profile }]);
  });

  it("refuses an id that is already taken", () => {
    spec.given([added()]).when(add).thenRefuses("conflict", "This team member already exists.");
  });

  it("refuses an id that belonged to a deleted member", () => {
    spec.given([added(), deleted()]).when(add).thenRefuses("conflict", "This team member already exists.");
  });

  it("refuses a missing name or e-mail with the form's messages", () => {
    spec.given([]).when({ ...add, name: " " }).thenRefuses("invalid", "Please enter your name.");
    spec.given([]).when({ ...add, email: "paolo" }).thenRefuses("invalid", "Please enter your email.");
  });
});

describe("ADMIN-1 editing a team member", () => {
  it("records the profile as it now is", () => {
    const expected: NewStaffEvent = {
      type: "StaffMemberUpdated",
      data: { ...profile, email: "paolo.reyes@etd.example", role: "Team" },
    };
    spec.given([added()]).when(update({ email: "paolo.reyes@etd.example", role: "Team" })).then([expected]);
  });

  it("succeeds with nothing to record when nothing changed", () => {
    spec.given([added()]).when(update()).then([]);
  });

  it("refuses an unknown or deleted member", () => {
    spec.given([]).when(update()).thenRefuses("not_found", "Team member not found.");
    spec.given([added(), deleted()]).when(update()).thenRefuses("not_found", "Team member not found.");
  });
});

describe("ADMIN-1 deleting a team member", () => {
  it("deletes another member ('Team member deleted successfully.')", () => {
    spec
      .given([added()])
      .when({ type: "DeleteStaffMember", staffId: PAOLO_ID, actor: MARIA })
      .then([{ type: "StaffMemberDeleted", data: { staffId: PAOLO_ID } }]);
  });

  it("refuses to delete one's own account", () => {
    spec
      .given([added()])
      .when({ type: "DeleteStaffMember", staffId: PAOLO_ID, actor: PAOLO })
      .thenRefuses("forbidden", "You cannot delete your own account.");
  });

  it("refuses a member that is already deleted, or never existed", () => {
    const command = { type: "DeleteStaffMember", staffId: PAOLO_ID, actor: MARIA } as const;
    spec.given([added(), deleted()]).when(command).thenRefuses("not_found", "Team member not found.");
    spec
      .given([])
      .when({ ...command, staffId: StaffId.make("unknown") })
      .thenRefuses("not_found", "Team member not found.");
  });
});

describe("AUTH-8 changing a password", () => {
  it("records that the password changed, never the password", () => {
    spec
      .given([added()])
      .when({ type: "ChangePassword", staffId: PAOLO_ID })
      .then([{ type: "PasswordChanged", data: { staffId: PAOLO_ID } }]);
  });

  it("refuses an unknown or deleted member", () => {
    spec.given([]).when({ type: "ChangePassword", staffId: PAOLO_ID }).thenRefuses("not_found", "Team member not found.");
    spec
      .given([added(), deleted()])
      .when({ type: "ChangePassword", staffId: PAOLO_ID })
      .thenRefuses("not_found", "Team member not found.");
  });
});

describe("what a staff member's state tells the API", () => {
  it("holds the current profile, deletion and the last password change", () => {
    expect(foldEvents(staffDecider, [added(), passwordChanged()])).toEqual({
      exists: true,
      ...profile,
      deleted: false,
      passwordChangedAt: "2025-03-14T18:00:00.000Z",
    });
    expect(foldEvents(staffDecider, [added(), deleted()])).toMatchObject({ exists: true, deleted: true });
    expect(foldEvents(staffDecider, [])).toEqual({ exists: false });
  });
});
