import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

const ASSIGNEES = 50;
const ORDERS = 200;

/*
 * R1 (QUEUE-9): fifty staff members press "Assign to me" on the same order at the same moment,
 * for two hundred orders. Exactly one wins each order; every loser is told who won and when; each
 * order's stream holds one assignment.
 */
describe.skipIf(!available)("R1 concurrent assignments", () => {
  let api: TestApi;
  const members: { name: string; token: string }[] = [];

  beforeAll(async () => {
    api = await startTestApi({ maxConnections: 30 });
    const admin = await api.login("Admin");
    for (let i = 0; i < ASSIGNEES; i++) {
      const name = `Assignee ${String(i + 1).padStart(2, "0")}`;
      const email = `assignee${i + 1}@demo.local`;
      const added = await api.call("POST", "/admin/add-team-member", { name, email, password: PASSWORD, type: "Team" }, admin);
      expect(added.body).toMatchObject({ status: 1 });
      const login = await api.call("POST", "/admin/admin-login", { email, password: PASSWORD });
      members.push({ name, token: login.body.jwtToken as string });
    }
  }, 120_000);

  afterAll(async () => {
    await api?.close();
  });

  it("50 simultaneous assignments of each of 200 orders: one winner each, every loser names the winner", async () => {
    const orderIds = await api.placeOrders(ORDERS);
    for (const orderId of orderIds) {
      const answers = await Promise.all(
        members.map(async (member) => ({
          member,
          answer: await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: member.name }, member.token),
        })),
      );
      const winners = answers.filter((a) => a.answer.status === 200);
      expect(winners, `order ${orderId}`).toHaveLength(1);
      const winner = winners[0]!;
      expect(winner.answer.body).toMatchObject({ status: 1, message: "Order has been assigned successfully" });
      const losers = answers.filter((a) => a !== winner);
      for (const loser of losers) {
        expect(loser.answer.status).toBe(409);
        expect(loser.answer.body.status).toBe(0);
        expect(loser.answer.body.message).toMatch(
          new RegExp(`^Order ${orderId} was assigned to ${winner.member.name} at \\d{2}:\\d{2}:\\d{2} UTC\\.$`),
        );
      }
      const events = await api.runtime.deps.store.readStream(`order-${orderId}`);
      expect(events.map((e) => e.type)).toEqual(["OrderPlaced", "OrderAssigned"]);
      expect((events[1]!.data as { assignee: { name: string } }).assignee.name).toBe(winner.member.name);
    }
  }, 600_000);
});
