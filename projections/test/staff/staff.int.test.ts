import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import { staffStream, type EventMetadata, type Role, type StaffEvent, type StaffId, type WithoutMetadata } from "@etd/events";
import { foldEvents, isRefusal, staffDecider, type StaffCommand } from "@etd/write";
import { openHarness, toLog, type Harness } from "../support/projection-harness.ts";
import { PASSWORD_MASK, staffMember, staffMembers, staffProjection } from "../../src/staff/index.ts";

const metadata: Omit<EventMetadata, "occurredAt"> = {
  actor: { kind: "staff", id: "admin-1" as StaffId, name: "Ana Admin", role: "Admin" },
  correlationId: "team-test",
};

const actor = { id: "admin-1" as StaffId, name: "Ana Admin", role: "Admin" as Role };

/** Runs staff commands through the real decider, one second apart (toLog's clock). */
const history = (commands: readonly StaffCommand[]) => {
  const streams = new Map<string, StaffEvent[]>();
  const entries: { event: WithoutMetadata<StaffEvent>; streamId: string; metadata: typeof metadata }[] = [];
  for (const command of commands) {
    const past = streams.get(command.staffId) ?? [];
    const decision = staffDecider.decide(command, foldEvents(staffDecider, past));
    if (isRefusal(decision)) throw new Error(decision.message);
    for (const event of decision) {
      past.push({ ...event, metadata: { ...metadata, occurredAt: "2025-03-14T08:00:00.000Z" } } as StaffEvent);
      entries.push({ event, streamId: staffStream(command.staffId), metadata });
    }
    streams.set(command.staffId, past);
  }
  return toLog(entries);
};

const add = (id: string, name: string, role: Role): StaffCommand => ({
  type: "AddStaffMember",
  staffId: id as StaffId,
  name,
  email: `${id}@example.com`,
  role,
  actor: { system: "test" },
});

const commands: StaffCommand[] = [
  add("m1", "Maria Santos", "Manager"),
  add("m2", "Jose Cruz", "Team"),
  add("m3", "Lea Reyes", "Telecaller"),
  add("m4", "Night Owl", "Night Staff"),
  { type: "UpdateStaffMember", staffId: "m2" as StaffId, name: "Jose P. Cruz", email: "jose@example.com", role: "Admin", actor: { system: "test" }, team: { admins: 0 } },
  { type: "UpdateStaffMember", staffId: "m3" as StaffId, name: "Lea Reyes", email: "m3@example.com", role: "Telecaller", changesPassword: true, actor, team: { admins: 1 } },
  { type: "DeleteStaffMember", staffId: "m4" as StaffId, actor, team: { admins: 1 } },
  // Issue 16: Lea turns on two-factor sign-in (08:00:07), then exports (08:00:08), which the list does not show.
  { type: "EnableTwoFactor", staffId: "m3" as StaffId, actor: { id: "m3" as StaffId, name: "Lea Reyes", role: "Telecaller" } },
  { type: "RecordExport", staffId: "m3" as StaffId, what: "queue", folderName: "newOrder", rows: 3, actor: { id: "m3" as StaffId, name: "Lea Reyes", role: "Telecaller" } },
  // Issue 27: Lea's capacity set to 12 (08:00:09); Jose's set to 5, then back to no limit (08:00:10, 08:00:11).
  { type: "SetCapacity", staffId: "m3" as StaffId, capacity: 12, actor },
  { type: "SetCapacity", staffId: "m2" as StaffId, capacity: 5, actor },
  { type: "SetCapacity", staffId: "m2" as StaffId, capacity: undefined, actor },
];

describe.skipIf(!(await postgresAvailable()))("staff projection (ADMIN-1)", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await openHarness([staffProjection]);
    await harness.apply(history(commands));
  });
  afterAll(async () => harness?.close());

  it("ADMIN-1: lists the members in the order they were added, as they are now, deleted members left out", async () => {
    const list = await staffMembers(harness.driver.query);
    expect(list.map((m) => [m.id, m.name, m.email, m.type])).toEqual([
      ["m1", "Maria Santos", "m1@example.com", "Manager"],
      ["m2", "Jose P. Cruz", "jose@example.com", "Admin"],
      ["m3", "Lea Reyes", "m3@example.com", "Telecaller"],
    ]);
  });

  it("ADMIN-1: the Password column shows the same mask for everyone, never a value", async () => {
    const list = await staffMembers(harness.driver.query);
    expect(PASSWORD_MASK).toBe("******");
    for (const member of list) {
      expect(member.password).toBe(PASSWORD_MASK);
      expect(Object.keys(member).filter((key) => /password|hash|secret/i.test(key)).sort()).toEqual(["password", "password_changed_at"]);
    }
  });

  it("keeps when a member was added, last changed and last had a password set", async () => {
    const [maria, jose, lea] = await staffMembers(harness.driver.query);
    expect(maria).toMatchObject({ added_at: "2025-03-14T08:00:00.000Z", updated_at: "2025-03-14T08:00:00.000Z", password_changed_at: null });
    expect(jose).toMatchObject({ added_at: "2025-03-14T08:00:01.000Z", updated_at: "2025-03-14T08:00:11.000Z" });
    expect(lea).toMatchObject({ password_changed_at: "2025-03-14T08:00:05.000Z", updated_at: "2025-03-14T08:00:09.000Z" });
  });

  it("AUTH-3 issue 16: the list's 2FA column says who turned on two-factor sign-in", async () => {
    const list = await staffMembers(harness.driver.query);
    expect(list.map((m) => [m.id, m.twoFactor])).toEqual([["m1", false], ["m2", false], ["m3", true]]);
  });

  it("issue 27: each member's capacity as last set, none when cleared or never set", async () => {
    const list = await staffMembers(harness.driver.query);
    expect(list.map((m) => [m.id, m.capacity])).toEqual([["m1", null], ["m2", null], ["m3", 12]]);
  });

  it("ADMIN-1: team-member-info gives one member with an empty password, so saving the form unchanged keeps theirs", async () => {
    expect(await staffMember(harness.driver.query, "m2")).toEqual({
      id: "m2",
      name: "Jose P. Cruz",
      email: "jose@example.com",
      type: "Admin",
      password: "",
      added_at: "2025-03-14T08:00:01.000Z",
      updated_at: "2025-03-14T08:00:11.000Z",
      password_changed_at: null,
      twoFactor: false,
      capacity: null,
    });
  });

  it("ADMIN-1: a deleted or unknown member is not found", async () => {
    expect(await staffMember(harness.driver.query, "m4")).toBeUndefined();
    expect(await staffMember(harness.driver.query, "nobody")).toBeUndefined();
  });

  it("has no column that could hold a password or its hash", async () => {
    const columns = await harness.driver.query(
      `select column_name from information_schema.columns where table_name = $1 order by ordinal_position`,
      [`${staffProjection.tables[0]}_v${staffProjection.version}`],
    );
    expect(columns.map((c) => c.column_name).filter((name) => /password|hash/i.test(String(name)))).toEqual(["password_changed_at"]);
  });

  it("gives the same list whatever the batch sizes", async () => {
    const oneByOne = await openHarness([staffProjection]);
    try {
      await oneByOne.apply(history(commands), 1);
      expect(await staffMembers(oneByOne.driver.query)).toEqual(await staffMembers(harness.driver.query));
    } finally {
      await oneByOne.close();
    }
  });
});
