import { postgresAvailable } from "@etd/infra/test-database";
import { DEFAULT_POLICY, dueAt, startClock, type OrderPlaced } from "@etd/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

const TAKERS = 50;
const ORDERS = 500;
const REASON = /^(due in|overdue) (less than 1 min|\d+ (min|h|d)( \d+ (min|h))?), the most urgent unassigned (Priority|Standard) order$/;

interface Member {
  readonly id: string;
  readonly name: string;
  readonly token: string;
}

/*
 * Take next (issue 27): fifty members press it at the same moment with five hundred orders
 * waiting; each gets a different order, and together exactly the fifty most urgent (overdue first,
 * then earliest due, Priority before Standard at the same moment, then the oldest paid), each with
 * its reason in the answer and in OrderAssigned. A member at capacity is refused, and nothing changes.
 */
describe.skipIf(!available)("issue 27: Take next", () => {
  let api: TestApi;
  let admin: string;
  const members: Member[] = [];
  let orderIds: string[] = [];

  beforeAll(async () => {
    api = await startTestApi({ maxConnections: 30 });
    admin = await api.login("Admin");
    for (let i = 0; i < TAKERS; i++) {
      const name = `Taker ${String(i + 1).padStart(2, "0")}`;
      const email = `taker${i + 1}@demo.local`;
      const added = await api.call("POST", "/admin/add-team-member", { name, email, password: PASSWORD, type: "Team" }, admin);
      expect(added.body).toMatchObject({ status: 1 });
      const login = await api.call("POST", "/admin/admin-login", { email, password: PASSWORD });
      members.push({ id: added.body.data.id as string, name, token: login.body.jwtToken as string });
    }
    orderIds = await api.placeOrders(ORDERS);
    // Take next reads the queue read model: wait until it shows the last order.
    const last = orderIds.at(-1)!;
    await api.readCaughtUp("/admin/get-all-folder-count", admin, last);
  }, 600_000);

  afterAll(async () => {
    await api?.close();
  });

  /** The orders from most to least urgent, from the log with the pure clock (the default policy is in force). */
  const mostUrgentFirst = async (ids: readonly string[]): Promise<string[]> => {
    const keyed = await Promise.all(
      ids.map(async (orderId) => {
        const [placed] = (await api.runtime.deps.store.readStream(`order-${orderId}`)) as unknown as [OrderPlaced];
        return {
          orderId,
          due: Date.parse(dueAt(startClock(placed, DEFAULT_POLICY))!),
          priority: placed.data.processingMode === "priority" ? 0 : 1,
          createdAt: Date.parse(placed.data.createdAt),
        };
      }),
    );
    keyed.sort((a, b) => a.due - b.due || a.priority - b.priority || a.createdAt - b.createdAt || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0));
    return keyed.map((order) => order.orderId);
  };

  it("50 concurrent Take next calls at 500 unassigned orders: 50 distinct orders, exactly the 50 most urgent, each with its reason in the event", async () => {
    const expected = (await mostUrgentFirst(orderIds)).slice(0, TAKERS);
    const answers = await Promise.all(members.map(async (member) => ({ member, answer: await api.call("POST", "/admin/take-next-order", undefined, member.token) })));

    for (const { answer } of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.status).toBe(1);
      expect(answer.body.data.reason).toMatch(REASON);
      expect(answer.body.message).toBe(`Order ${answer.body.data.orderId} is yours: ${answer.body.data.reason}.`);
    }
    const taken = answers.map(({ answer }) => answer.body.data.orderId as string);
    expect(new Set(taken).size).toBe(TAKERS);
    expect([...taken].sort()).toEqual([...expected].sort());

    for (const { member, answer } of answers) {
      const events = await api.runtime.deps.store.readStream(`order-${answer.body.data.orderId}`);
      expect(events.map((event) => event.type)).toEqual(["OrderPlaced", "OrderAssigned"]);
      expect(events[1]!.data).toMatchObject({ assignee: { id: member.id, name: member.name }, reason: answer.body.data.reason });
    }
  }, 300_000);

  it("at capacity the call is refused with its message and changes nothing: no event, no claim", async () => {
    const [member] = members;
    const set = await api.call("POST", "/admin/set-team-member-capacity", { tmId: member!.id, capacity: 1 }, admin);
    expect(set.body).toMatchObject({ status: 1, message: "Capacity saved successfully." });
    // The team list shows the capacity, and the order Take next gave them, once the read models hold both.
    for (;;) {
      const info = await api.call("GET", `/admin/team-member-info/${member!.id}`, undefined, admin);
      if (info.body.data.capacity === 1 && info.body.data.openOrders === 1) break;
    }

    const claims = async () =>
      (await api.runtime.driver.query("select order_id from take_next_claims where staff_id = $1", [member!.id])).map((row) => String(row.order_id));
    const before = { events: await api.eventCount(), claims: await claims() };
    const refused = await api.call("POST", "/admin/take-next-order", undefined, member!.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 0, message: "You have 1 open order, your capacity. Finish one to take the next.", data: null });
    expect(await api.eventCount()).toBe(before.events);
    // At most the claim of the order they were given earlier, which the queue now shows as theirs.
    const after = await claims();
    expect(after.every((orderId) => before.claims.includes(orderId))).toBe(true);

    // An empty capacity is no limit again: the next call gives them the next order.
    await api.call("POST", "/admin/set-team-member-capacity", { tmId: member!.id, capacity: null }, admin);
    for (;;) {
      const info = await api.call("GET", `/admin/team-member-info/${member!.id}`, undefined, admin);
      if (info.body.data.capacity === null) break;
    }
    const taken = await api.call("POST", "/admin/take-next-order", undefined, member!.token);
    expect(taken.body).toMatchObject({ status: 1, data: { reason: expect.stringMatching(REASON) } });
  }, 120_000);

  /** The most urgent order the queue shows waiting, as Take next would pick it. */
  const mostUrgentWaiting = async (): Promise<string> => {
    for (const orderId of await mostUrgentFirst(orderIds)) {
      const last = (await api.runtime.deps.store.readStream(`order-${orderId}`)).at(-1)!;
      if (last.type === "OrderPlaced" || last.type === "OrderMovedToOriginalFolder") return orderId;
    }
    throw new Error("no order is waiting");
  };
  const claimOf = async (orderId: string) =>
    (await api.runtime.driver.query("select staff_id, done_tx is not null as done from take_next_claims where order_id = $1", [orderId])).at(0);

  it("an order taken and sent back to its folder is offered again at once: the claim ended when the queue applied the assignment", async () => {
    const [, first, second] = members;
    const taken = await api.call("POST", "/admin/take-next-order", undefined, first!.token);
    const orderId = taken.body.data.orderId as string;
    expect(await claimOf(orderId)).toMatchObject({ staff_id: first!.id, done: true });
    await api.readCaughtUp("/admin/get-all-folder-count", admin, orderId);
    const back = await api.call("PUT", "/admin/move-order-status", { orderId: [orderId] }, admin);
    expect(back.body).toMatchObject({ status: 1 });
    await api.readCaughtUp("/admin/get-all-folder-count", admin, orderId);
    // Still the most urgent waiting order (its clock kept running), so the next caller gets it.
    expect(await mostUrgentWaiting()).toBe(orderId);
    const again = await api.call("POST", "/admin/take-next-order", undefined, second!.token);
    expect(again.body).toMatchObject({ status: 1, data: { orderId } });
  }, 60_000);

  it("a capacity set below what a member holds: the refusal says by how much", async () => {
    // The member given the order sent back above holds two: the one from the first test and that one.
    const [, , second] = members;
    await api.call("POST", "/admin/set-team-member-capacity", { tmId: second!.id, capacity: 1 }, admin);
    for (;;) {
      const info = await api.call("GET", `/admin/team-member-info/${second!.id}`, undefined, admin);
      if (info.body.data.capacity === 1 && info.body.data.openOrders === 2) break;
    }
    const refused = await api.call("POST", "/admin/take-next-order", undefined, second!.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 0, message: "You have 2 open orders, more than your capacity of 1. Finish 2 to take the next.", data: null });
  }, 60_000);

  it("a claim whose assignment the queue has not applied outlives any time limit; one never done (its process died) is let go", async () => {
    const [, , , fourth, fifth] = members;
    const head = await api.runtime.deps.store.headPosition();
    const stuck = await mostUrgentWaiting();
    // As a projector far behind would leave it: done at a position the queue has not reached, an hour ago.
    await api.runtime.driver.query(
      `insert into take_next_claims (order_id, staff_id, claimed_at, done_tx, done_seq) values ($1, $2, now() - interval '1 hour', $3, 0)`,
      [stuck, fourth!.id, (head.tx + 1_000_000n).toString()],
    );
    const taken = await api.call("POST", "/admin/take-next-order", undefined, fifth!.token);
    expect(taken.body).toMatchObject({ status: 1 });
    expect(taken.body.data.orderId).not.toBe(stuck);
    expect(await claimOf(stuck)).toMatchObject({ staff_id: fourth!.id, done: true });
    await api.runtime.driver.query("delete from take_next_claims where order_id = $1", [stuck]);

    // A claim that was never done, an hour old: the process that made it is gone, the order is free.
    const orphan = await mostUrgentWaiting();
    await api.runtime.driver.query(`insert into take_next_claims (order_id, staff_id, claimed_at) values ($1, $2, now() - interval '1 hour')`, [orphan, fourth!.id]);
    const next = await api.call("POST", "/admin/take-next-order", undefined, fifth!.token);
    expect(next.body).toMatchObject({ status: 1, data: { orderId: orphan } });
  }, 60_000);

  it("a capacity is a whole number from 1 to 1000; a Manager cannot set an Admin's", async () => {
    const manager = await api.login("Manager");
    const invalid = await api.call("POST", "/admin/set-team-member-capacity", { tmId: members[1]!.id, capacity: 0 }, admin);
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe("A capacity is a whole number from 1 to 1000, or empty for no limit.");
    const forbidden = await api.call("POST", "/admin/set-team-member-capacity", { tmId: api.staff.Admin.id, capacity: 5 }, manager);
    expect(forbidden.status).toBe(403);
    const unknown = await api.call("POST", "/admin/set-team-member-capacity", { tmId: "no-such-member", capacity: 5 }, admin);
    expect(unknown.status).toBe(404);
  }, 60_000);
});
