import { type StaffEvent, StaffId } from "@etd/events";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AddStaffMember,
  foldEvents,
  isRefusal,
  type NewStaffEvent,
  staffDecider,
  type UpdateStaffMember,
} from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { GRACE, MARIA, PAOLO, staffMetadata } from "../support/metadata.ts";
import { storedEvent } from "../support/order-fixtures.ts";

const spec = specFor(staffDecider);

const PAOLO_ID = PAOLO.id;

const profile = { staffId: PAOLO_ID, name: "Paolo Reyes", email: "paolo@etd.example", role: "Night Staff" } as const;

const add: AddStaffMember = { type: "AddStaffMember", ...profile, actor: MARIA };
const TEAM = { admins: 2 };
const update = (changes: Partial<UpdateStaffMember> = {}): UpdateStaffMember => ({
  type: "UpdateStaffMember",
  ...profile,
  actor: MARIA,
  team: TEAM,
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
      .when({ type: "DeleteStaffMember", staffId: PAOLO_ID, actor: MARIA, team: TEAM })
      .then([{ type: "StaffMemberDeleted", data: { staffId: PAOLO_ID } }]);
  });

  it("refuses to delete one's own account", () => {
    spec
      .given([added()])
      .when({ type: "DeleteStaffMember", staffId: PAOLO_ID, actor: PAOLO, team: TEAM })
      .thenRefuses("forbidden", "You cannot delete your own account.");
  });

  it("refuses a member that is already deleted, or never existed", () => {
    const command = { type: "DeleteStaffMember", staffId: PAOLO_ID, actor: MARIA, team: TEAM } as const;
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
      .when({ type: "ChangePassword", staffId: PAOLO_ID, actor: PAOLO })
      .then([{ type: "PasswordChanged", data: { staffId: PAOLO_ID } }]);
  });

  it("Change Password is the member's own: another's, even by an Admin, is set on the edit form (ADR 0027)", () => {
    spec.given([added()]).when({ type: "ChangePassword", staffId: PAOLO_ID, actor: GRACE }).thenRefuses("forbidden", "Change Password sets only your own password.");
    spec.given([added()]).when({ type: "ChangePassword", staffId: PAOLO_ID, actor: MARIA }).thenRefuses("forbidden", "Change Password sets only your own password.");
  });

  it("refuses an unknown or deleted member", () => {
    spec.given([]).when({ type: "ChangePassword", staffId: PAOLO_ID, actor: PAOLO }).thenRefuses("not_found", "Team member not found.");
    spec
      .given([added(), deleted()])
      .when({ type: "ChangePassword", staffId: PAOLO_ID, actor: PAOLO })
      .thenRefuses("not_found", "Team member not found.");
  });
});

describe("AUTH-3 two-factor sign-in in the decider (issue 16)", () => {
  const enable = { type: "EnableTwoFactor", staffId: PAOLO_ID, actor: PAOLO } as const;
  const reset = { type: "ResetTwoFactor", staffId: PAOLO_ID, actor: GRACE } as const;
  const useCode = { type: "UseRecoveryCode", staffId: PAOLO_ID, remaining: 9, actor: PAOLO } as const;
  const enabled = () => storedEvent("TwoFactorEnabled", { staffId: PAOLO_ID }, staffMetadata(PAOLO));
  const wasReset = () => storedEvent("TwoFactorReset", { staffId: PAOLO_ID }, staffMetadata(GRACE));

  it("the member turns it on for themself, once", () => {
    spec.given([added()]).when(enable).then([{ type: "TwoFactorEnabled", data: { staffId: PAOLO_ID } }]);
    spec.given([added(), enabled()]).when(enable).thenRefuses("conflict", "Two-factor sign-in is already set up.");
    // After a reset the member enrols again.
    spec.given([added(), enabled(), wasReset()]).when(enable).then([{ type: "TwoFactorEnabled", data: { staffId: PAOLO_ID } }]);
  });

  it("no one, not even an Admin, turns it on for another member", () => {
    spec.given([added()]).when({ ...enable, actor: GRACE }).thenRefuses("forbidden", "Only the member themself can do this with their two-factor sign-in.");
  });

  it("only an Admin resets it, and only when it is on", () => {
    spec.given([added(), enabled()]).when(reset).then([{ type: "TwoFactorReset", data: { staffId: PAOLO_ID } }]);
    spec.given([added(), enabled()]).when({ ...reset, actor: MARIA }).thenRefuses("forbidden", "Only an Admin can reset two-factor sign-in.");
    spec.given([added(), enabled()]).when({ ...reset, actor: PAOLO }).thenRefuses("forbidden", "Only an Admin can reset two-factor sign-in.");
    spec.given([added()]).when(reset).thenRefuses("conflict", "This member has not set up two-factor sign-in.");
    spec.given([added(), enabled(), wasReset()]).when(reset).thenRefuses("conflict", "This member has not set up two-factor sign-in.");
  });

  it("a Manager cannot reset an Admin's second factor either", () => {
    const adminTarget = storedEvent("StaffMemberAdded", { ...profile, role: "Admin" }, staffMetadata(GRACE));
    spec.given([adminTarget, enabled()]).when({ ...reset, actor: MARIA }).thenRefuses("forbidden", "Only an Admin can reset two-factor sign-in.");
  });

  it("a recovery code counts only for a member with two-factor sign-in, and says how many are left", () => {
    spec.given([added(), enabled()]).when(useCode).then([{ type: "RecoveryCodeUsed", data: { staffId: PAOLO_ID, remaining: 9 } }]);
    spec.given([added()]).when(useCode).thenRefuses("conflict", "This member has not set up two-factor sign-in.");
    spec.given([added(), enabled()]).when({ ...useCode, actor: MARIA }).thenRefuses("forbidden", "Only the member themself can do this with their two-factor sign-in.");
  });

  it("nothing for a deleted member", () => {
    spec.given([added(), enabled(), deleted()]).when(reset).thenRefuses("not_found", "Team member not found.");
    spec.given([added(), deleted()]).when(enable).thenRefuses("not_found", "Team member not found.");
  });

  it("the state knows whether it is on", () => {
    expect(foldEvents(staffDecider, [added(), enabled()])).toMatchObject({ twoFactor: true });
    expect(foldEvents(staffDecider, [added(), enabled(), wasReset()])).toMatchObject({ twoFactor: false });
  });
});

describe("issue 16 D recording an export", () => {
  const record = { type: "RecordExport", staffId: PAOLO_ID, what: "queue", folderName: "newOrder", rows: 516, actor: PAOLO } as const;

  it("records what was exported, in the member's own name", () => {
    spec.given([added()]).when(record).then([
      { type: "DataExported", data: { staffId: PAOLO_ID, what: "queue", folderName: "newOrder", rows: 516 } },
    ]);
    spec.given([added()]).when({ ...record, what: "report", folderName: undefined, report: "daily", rows: 0 }).then([
      { type: "DataExported", data: { staffId: PAOLO_ID, what: "report", report: "daily", rows: 0 } },
    ]);
  });

  it("an Admin's own export is recorded too (the Admin-only edit rule does not apply)", () => {
    const admin = storedEvent("StaffMemberAdded", { ...profile, staffId: GRACE.id, role: "Admin" }, staffMetadata(GRACE));
    spec.given([admin]).when({ ...record, staffId: GRACE.id, actor: GRACE }).then([
      { type: "DataExported", data: { staffId: GRACE.id, what: "queue", folderName: "newOrder", rows: 516 } },
    ]);
  });

  it("refuses a deleted member, and an export in someone else's name", () => {
    spec.given([added(), deleted()]).when(record).thenRefuses("not_found", "Team member not found.");
    spec.given([added()]).when({ ...record, actor: MARIA }).thenRefuses("forbidden", "An export is recorded in the name of the member who makes it.");
    spec.given([added()]).when({ ...record, rows: -1 }).thenRefuses("invalid", "The number of exported rows must be 0 or more.");
  });
});

describe("what a staff member's state tells the API", () => {
  it("holds the current profile, deletion and the last password change", () => {
    expect(foldEvents(staffDecider, [added(), passwordChanged()])).toEqual({
      exists: true,
      ...profile,
      deleted: false,
      passwordChangedAt: "2025-03-14T18:00:00.000Z",
      twoFactor: false,
    });
    expect(foldEvents(staffDecider, [added(), deleted()])).toMatchObject({ exists: true, deleted: true });
    expect(foldEvents(staffDecider, [])).toEqual({ exists: false });
  });
});

/*
 * R12 and ADR 0027: who may change whom, for every role, every target role before and after, a
 * password set or not, and oneself. The expectation is written from the rule's words, apart from
 * the decider: only an Admin creates, edits, deletes or grants Admin; only an Admin changes a
 * Manager's role, sets another Manager's password or changes another Manager's name or e-mail; no
 * one changes their own role; the last Admin
 * stays. One save is one decision, judged against the member as they stood before it. (Who may
 * open Manage Team at all is the permission matrix's, tested at the API.)
 */
describe("R12 the staff role matrix in the decider", () => {
  const ROLES = ["Admin", "Manager", "Team", "Telecaller", "Night Staff"] as const;
  type R = (typeof ROLES)[number];
  const ACTOR_ID = StaffId.make("actor-1");
  const actorAs = (role: R) => ({ id: ACTOR_ID, name: "Actor", role });
  const targetAs = (role: R, self: boolean) => ({ ...profile, staffId: self ? ACTOR_ID : PAOLO_ID, role });
  const given = (role: R, self: boolean) => [storedEvent("StaffMemberAdded", targetAs(role, self), staffMetadata(MARIA))];
  const touchesAdmin = (...roles: R[]) => roles.includes("Admin");

  /** The edit form's rule, from its words: may `actor` save `target` (before) as `to`, with a new password or not? */
  const mayEdit = (actor: R, target: R, to: R, password: boolean, self: boolean) => {
    if (touchesAdmin(target, to) && actor !== "Admin") return false;
    if (to !== target && (self || (target === "Manager" && actor !== "Admin"))) return false;
    return !(password && !self && target === "Manager" && actor !== "Admin");
  };

  for (const actor of ROLES) {
    for (const target of ROLES) {
      it(`${actor} adds a ${target}`, () => {
        const outcome = staffDecider.decide({ ...add, role: target, actor: actorAs(actor) }, foldEvents(staffDecider, []));
        const allowed = !touchesAdmin(target) || actor === "Admin";
        expect(Array.isArray(outcome), JSON.stringify(outcome)).toBe(allowed);
      });

      for (const self of [false, true]) {
        if (self && target !== actor) continue;
        const who = self ? "themself" : `a ${target}`;
        for (const to of ROLES) {
          for (const password of [false, true]) {
            it(`${actor} saves ${who} as ${to}${password ? " with a new password" : ""} (two Admins)`, () => {
              const staffId = self ? ACTOR_ID : PAOLO_ID;
              const command = { ...update({ role: to, changesPassword: password, actor: actorAs(actor) }), staffId };
              const outcome = staffDecider.decide(command, foldEvents(staffDecider, given(target, self)));
              if (!mayEdit(actor, target, to, password, self)) {
                expect(outcome, JSON.stringify(outcome)).toMatchObject({ _tag: "Refused", reason: "forbidden" });
                return;
              }
              // Exactly the change: the profile if the role moved, the password if one was set.
              expect(outcome).toEqual([
                ...(to === target ? [] : [{ type: "StaffMemberUpdated", data: { ...targetAs(to, self) } }]),
                ...(password ? [{ type: "PasswordChanged", data: { staffId } }] : []),
              ]);
            });
          }
        }
        it(`${actor} deletes ${who} (two Admins)`, () => {
          const command = { type: "DeleteStaffMember", staffId: self ? ACTOR_ID : PAOLO_ID, actor: actorAs(actor), team: TEAM } as const;
          const outcome = staffDecider.decide(command, foldEvents(staffDecider, given(target, self)));
          const allowed = !self && (!touchesAdmin(target) || actor === "Admin");
          expect(Array.isArray(outcome), JSON.stringify(outcome)).toBe(allowed);
        });
        it(`${actor} uses Change Password on ${who}`, () => {
          const command = { type: "ChangePassword", staffId: self ? ACTOR_ID : PAOLO_ID, actor: actorAs(actor) } as const;
          const outcome = staffDecider.decide(command, foldEvents(staffDecider, given(target, self)));
          expect(Array.isArray(outcome), JSON.stringify(outcome)).toBe(self);
        });
      }
    }
  }

  it("the last Admin can be neither deleted nor given another role, even by an Admin", () => {
    const lastAdmin = given("Admin", false);
    const admin = actorAs("Admin");
    spec.given(lastAdmin).when({ type: "DeleteStaffMember", staffId: PAOLO_ID, actor: admin, team: { admins: 1 } }).thenRefuses("conflict", "The last Admin cannot be deleted.");
    spec.given(lastAdmin).when(update({ role: "Manager", actor: admin, team: { admins: 1 } })).thenRefuses("conflict", "The last Admin cannot be given another role.");
    spec.given(lastAdmin).when(update({ role: "Manager", changesPassword: true, actor: admin, team: { admins: 1 } })).thenRefuses("conflict", "The last Admin cannot be given another role.");
    spec.given(lastAdmin).when(update({ role: "Admin", name: "Paolo R.", actor: admin, team: { admins: 1 } })).then([
      { type: "StaffMemberUpdated", data: { ...profile, role: "Admin", name: "Paolo R." } },
    ]);
  });

  it("the system (first admin, demo data) may add an Admin", () => {
    spec.given([]).when({ ...add, role: "Admin", actor: { system: "setup" } }).then([{ type: "StaffMemberAdded", data: { ...profile, role: "Admin" } }]);
  });

  it("says why in the words staff read", () => {
    const manager = actorAs("Manager");
    spec.given(given("Admin", false)).when(update({ actor: MARIA, role: "Admin" })).thenRefuses("forbidden", "Only an Admin can add, edit or delete an Admin, or make someone an Admin.");
    spec.given(given("Manager", true)).when({ ...update({ role: "Team", actor: manager }), staffId: ACTOR_ID }).thenRefuses("forbidden", "You cannot change your own role.");
    spec.given(given("Team", false)).when(update({ role: "Admin", actor: manager })).thenRefuses("forbidden", "Only an Admin can add, edit or delete an Admin, or make someone an Admin.");
    spec.given(given("Manager", false)).when(update({ role: "Team", actor: manager })).thenRefuses("forbidden", "Only an Admin can change a Manager's role.");
    spec.given(given("Manager", false)).when(update({ role: "Manager", changesPassword: true, actor: manager })).thenRefuses("forbidden", "Only an Admin can set another Manager's password.");
    spec.given(given("Manager", false)).when(update({ role: "Manager", name: " ", changesPassword: true, actor: manager })).thenRefuses("invalid", "Please enter your name.");
  });

  it("issue 25: a Manager's save that demotes a peer Manager and sets their password is refused whole, as the role change", () => {
    // The finding: the password was judged against the member as already demoted (a Team member).
    const manager = actorAs("Manager");
    spec.given(given("Manager", false)).when(update({ role: "Team", changesPassword: true, actor: manager })).thenRefuses("forbidden", "Only an Admin can change a Manager's role.");
    // An Admin's same save is one decision with both events, in the order the state takes them.
    spec.given(given("Manager", false)).when(update({ role: "Team", changesPassword: true, actor: actorAs("Admin") })).then([
      { type: "StaffMemberUpdated", data: { ...profile, role: "Team" } },
      { type: "PasswordChanged", data: { staffId: PAOLO_ID } },
    ]);
    // A Manager keeps the screen's purpose: a Team member's new password and name.
    spec.given(given("Team", false)).when(update({ role: "Team", changesPassword: true, actor: manager })).then([{ type: "PasswordChanged", data: { staffId: PAOLO_ID } }]);
    spec.given(given("Team", false)).when(update({ role: "Team", name: "Paolo R.", actor: manager })).then([
      { type: "StaffMemberUpdated", data: { ...profile, role: "Team", name: "Paolo R." } },
    ]);
  });

  it("issue 25's review: only an Admin changes another Manager's name or e-mail; a Manager still edits their own", () => {
    const manager = actorAs("Manager");
    const message = "Only an Admin can change another Manager's name or email.";
    spec.given(given("Manager", false)).when(update({ role: "Manager", name: "Paolo R.", actor: manager })).thenRefuses("forbidden", message);
    spec.given(given("Manager", false)).when(update({ role: "Manager", email: "p@etd.example", actor: manager })).thenRefuses("forbidden", message);
    // Saving a peer unchanged decides nothing and records nothing.
    spec.given(given("Manager", false)).when(update({ role: "Manager", actor: manager })).then([]);
    spec.given(given("Manager", false)).when(update({ role: "Manager", name: "Paolo R.", actor: actorAs("Admin") })).then([
      { type: "StaffMemberUpdated", data: { ...profile, role: "Manager", name: "Paolo R." } },
    ]);
    spec.given(given("Manager", true)).when({ ...update({ role: "Manager", name: "Paolo R.", actor: manager }), staffId: ACTOR_ID }).then([
      { type: "StaffMemberUpdated", data: { ...profile, staffId: ACTOR_ID, role: "Manager", name: "Paolo R." } },
    ]);
  });

  it("no sequence of a Manager's commands on a peer Manager's stream changes their password or role", () => {
    const manager = actorAs("Manager");
    const save = fc.record({ role: fc.constantFrom(...ROLES), changesPassword: fc.boolean(), name: fc.constantFrom(profile.name, "Paolo R."), email: fc.constantFrom(profile.email, "p@etd.example") });
    const command = fc.oneof(
      save.map((edit) => update({ ...edit, actor: manager })),
      fc.constant({ type: "ChangePassword", staffId: PAOLO_ID, actor: manager } as const),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 12 }), (commands) => {
        let history: StaffEvent[] = given("Manager", false);
        for (const next of commands) {
          const outcome = staffDecider.decide(next, foldEvents(staffDecider, history));
          if (isRefusal(outcome)) continue;
          expect(outcome.map((event) => event.type)).not.toContain("PasswordChanged");
          history = [...history, ...outcome.map((event) => ({ ...event, metadata: staffMetadata(manager) }))];
        }
        expect(foldEvents(staffDecider, history)).toMatchObject({ role: "Manager", name: profile.name, email: profile.email, passwordChangedAt: undefined });
      }),
      { seed: 25, numRuns: 300 },
    );
  });
});

describe("issue 27 a member's capacity", () => {
  const setCapacity = (capacity: number | undefined, actor = MARIA) => ({ type: "SetCapacity" as const, staffId: PAOLO_ID, capacity, actor });

  it("an Admin or Manager sets it, and can remove it again", () => {
    spec.given([added()]).when(setCapacity(12)).then([{ type: "StaffCapacitySet", data: { staffId: PAOLO_ID, capacity: 12 } }]);
    const limited = storedEvent("StaffCapacitySet", { staffId: PAOLO_ID, capacity: 12 }, staffMetadata(MARIA));
    spec.given([added(), limited]).when(setCapacity(undefined, GRACE)).then([{ type: "StaffCapacitySet", data: { staffId: PAOLO_ID } }]);
    spec.given([added(), limited]).when(setCapacity(12)).then([]);
  });

  it("is a whole number from 1 to 1000", () => {
    for (const wrong of [0, -1, 2.5, 1001]) {
      spec.given([added()]).when(setCapacity(wrong)).thenRefuses("invalid", "A capacity is a whole number from 1 to 1000, or empty for no limit.");
    }
  });

  it("never one's own, and a Manager's only by an Admin", () => {
    const manager = storedEvent("StaffMemberAdded", { ...profile, role: "Manager" }, staffMetadata(GRACE));
    spec.given([manager]).when(setCapacity(5)).thenRefuses("forbidden", "Only an Admin can set a Manager's capacity.");
    spec.given([manager]).when(setCapacity(5, GRACE)).then([{ type: "StaffCapacitySet", data: { staffId: PAOLO_ID, capacity: 5 } }]);
    spec.given([added()]).when(setCapacity(5, PAOLO)).thenRefuses("forbidden", "You cannot set your own capacity.");
  });

  it("not for a deleted member, and an Admin's only by an Admin", () => {
    spec.given([added(), deleted()]).when(setCapacity(5)).thenRefuses("not_found", "Team member not found.");
    const admin = storedEvent("StaffMemberAdded", { ...profile, role: "Admin" }, staffMetadata(GRACE));
    spec.given([admin]).when(setCapacity(5)).thenRefuses("forbidden", "Only an Admin can add, edit or delete an Admin, or make someone an Admin.");
  });
});
