import { postgresAvailable } from "@etd/infra/test-database";
import type { OrderId } from "@etd/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import { folderCounts, QUEUE_KEYS, queueProjection, type QueueKey } from "../../src/queue/index.ts";
import { folderReport, listAll } from "./queue-oracle.ts";
import { ADMIN, createScenario, JOSE, MARIA, TODAY, type Scenario } from "./queue-scenario.ts";

const available = await postgresAvailable();

const maria = { today: TODAY, staffId: MARIA.id };
const jose = { today: TODAY, staffId: JOSE.id };

/** Which folders (queue keys) an order is listed in, for a viewer. */
const foldersOf = async (harness: Harness, orderId: string, viewer = maria): Promise<QueueKey[]> => {
  const found: QueueKey[] = [];
  for (const key of QUEUE_KEYS) if ((await listAll(harness.driver.query, key, viewer)).includes(orderId)) found.push(key);
  return found;
};

/** A due order created on `day`, standard unless `priority`. */
const due = (scenario: Scenario, day: string, priority = false): OrderId =>
  scenario.place({
    created_at: `${day}T09:00:00Z`,
    processing_date: day,
    processing_mode: priority ? "Priority Processing" : "Regular Processing",
  });

describe.skipIf(!available)("queue folders after real order histories (QUEUE-1, SHELL-5, QUEUE-14)", () => {
  let harness: Harness;
  const scenario = createScenario();
  const ids: Record<string, OrderId> = {};

  beforeAll(async () => {
    harness = await openHarness([queueProjection]);

    ids.standard = due(scenario, "2025-03-10");
    ids.priority = due(scenario, "2025-03-11", true);
    ids.future = scenario.place({
      created_at: "2025-03-12T10:00:00Z",
      processing_date: "2025-04-20",
      processing_mode: "Regular Processing",
    });
    ids.futurePriority = scenario.place({
      created_at: "2025-03-12T11:00:00Z",
      processing_date: "2025-05-02",
      processing_mode: "Priority Processing",
    });
    ids.dueToday = scenario.place({ created_at: "2025-03-13T11:00:00Z", processing_date: TODAY, processing_mode: "standard" });

    ids.assigned = due(scenario, "2025-03-01");
    scenario.assign(ids.assigned, MARIA);

    ids.assignedByJose = due(scenario, "2025-03-01", true);
    scenario.assign(ids.assignedByJose, JOSE);

    ids.awaiting = due(scenario, "2025-03-02");
    scenario.assign(ids.awaiting, MARIA);
    scenario.move(ids.awaiting, "Awaiting", MARIA);

    ids.govt = due(scenario, "2025-03-02");
    scenario.assign(ids.govt, MARIA);
    scenario.move(ids.govt, "AwaitingGovt", MARIA);

    ids.contact = due(scenario, "2025-03-03");
    scenario.move(ids.contact, "ContactCustomer");

    ids.called = due(scenario, "2025-03-03");
    scenario.assign(ids.called, MARIA);
    scenario.move(ids.called, "ContactCustomer", MARIA);
    scenario.move(ids.called, "CustomerCalled", MARIA);

    ids.completed = due(scenario, "2025-03-04");
    scenario.assign(ids.completed, MARIA);
    scenario.move(ids.completed, "Completed", MARIA);

    ids.deleted = due(scenario, "2025-03-04");
    scenario.remove(ids.deleted);

    ids.undeleted = due(scenario, "2025-03-05");
    scenario.assign(ids.undeleted, MARIA);
    scenario.remove(ids.undeleted);
    scenario.move(ids.undeleted, "Pending", ADMIN);

    ids.refund = due(scenario, "2025-03-05");
    scenario.assign(ids.refund, MARIA);
    scenario.requestRefund(ids.refund, "2025-03-12");

    ids.refunded = due(scenario, "2025-03-06");
    scenario.assign(ids.refunded, MARIA);
    scenario.requestRefund(ids.refunded, "2025-03-13");
    scenario.refunded(ids.refunded);

    ids.chargeback = due(scenario, "2025-03-06");
    scenario.assign(ids.chargeback, MARIA);
    scenario.move(ids.chargeback, "Completed", MARIA);
    scenario.chargeback(ids.chargeback);

    ids.movedBack = due(scenario, "2025-03-07", true);
    scenario.assign(ids.movedBack, MARIA);
    scenario.move(ids.movedBack, "Awaiting", MARIA);
    scenario.backToOriginal(ids.movedBack);

    // Applied in small batches, so that an order's events span batches.
    await harness.apply(scenario.log(), 7);
  });
  afterAll(async () => harness?.close());

  it("QUEUE-1: a standard order waits in New and a priority order in Priority, once their processing day has come", async () => {
    expect(await foldersOf(harness, ids.standard!)).toEqual(["newOrder", "allOrder"]);
    expect(await foldersOf(harness, ids.priority!)).toEqual(["priorityOrder", "allOrder"]);
    expect(await foldersOf(harness, ids.dueToday!)).toEqual(["newOrder", "allOrder"]);
  });

  it("QUEUE-1: an order due after today is a Future order, standard or priority, and becomes New or Priority on its day", async () => {
    expect(await foldersOf(harness, ids.future!)).toEqual(["allOrder", "futureOrder"]);
    expect(await foldersOf(harness, ids.futurePriority!)).toEqual(["allOrder", "futureOrder"]);
    const onTheDay = { today: "2025-04-20", staffId: MARIA.id };
    expect(await foldersOf(harness, ids.future!, onTheDay)).toEqual(["newOrder", "allOrder"]);
    expect(await foldersOf(harness, ids.futurePriority!, onTheDay)).toEqual(["allOrder", "futureOrder"]);
  });

  it("QUEUE-9, QUEUE-14: Assign to me makes the order Pending and lists it in the assignee's My Orders only", async () => {
    expect(await foldersOf(harness, ids.assigned!)).toEqual(["pendingOrder", "allOrder", "myOrder"]);
    expect(await foldersOf(harness, ids.assigned!, jose)).toEqual(["pendingOrder", "allOrder"]);
    expect(await foldersOf(harness, ids.assignedByJose!, jose)).toEqual(["pendingOrder", "allOrder", "myOrder"]);
  });

  it("QUEUE-1: a status move lists the order in that status's folder; an assigned order stays in My Orders while open", async () => {
    expect(await foldersOf(harness, ids.awaiting!)).toEqual(["awaitingOrder", "allOrder", "myOrder"]);
    expect(await foldersOf(harness, ids.govt!)).toEqual(["awaitingGovtOrder", "allOrder", "myOrder"]);
    expect(await foldersOf(harness, ids.contact!)).toEqual(["allOrder", "contactCustomerOrder"]);
    expect(await foldersOf(harness, ids.called!)).toEqual(["customerCalledOrder", "allOrder", "myOrder"]);
  });

  it("QUEUE-14: a Completed order leaves My Orders", async () => {
    expect(await foldersOf(harness, ids.completed!)).toEqual(["completedOrder", "allOrder"]);
  });

  it("QUEUE-8: a soft-deleted order is only in Deleted and Order History; moving it again undoes the delete", async () => {
    expect(await foldersOf(harness, ids.deleted!)).toEqual(["deletedOrder", "allOrder"]);
    expect(await foldersOf(harness, ids.undeleted!)).toEqual(["pendingOrder", "allOrder", "myOrder"]);
  });

  it("QUEUE-11: a refund request lists the order in Refunds; after Refunded it, it stays there as Completed Refund and leaves My Orders", async () => {
    expect(await foldersOf(harness, ids.refund!)).toEqual(["allOrder", "refundOrder", "myOrder"]);
    expect(await foldersOf(harness, ids.refunded!)).toEqual(["allOrder", "refundOrder"]);
    const [refunded] = (await listAll(harness.driver.query, "refundOrder", maria)).filter((id) => id === ids.refunded);
    expect(refunded).toBe(ids.refunded);
  });

  it("ADMIN-7: a chargeback lists the order in Chargeback, and an assigned one back in My Orders", async () => {
    expect(await foldersOf(harness, ids.chargeback!)).toEqual(["allOrder", "myOrder", "chargeBack"]);
  });

  it("QUEUE-10: Move to Original Folder clears the assignee and returns a priority order to Priority", async () => {
    expect(await foldersOf(harness, ids.movedBack!)).toEqual(["priorityOrder", "allOrder"]);
  });

  it("SHELL-5: the counts object has exactly the fourteen fields of 000 §3, each equal to its list's length", async () => {
    const counts = await folderCounts(harness.driver.query, maria);
    expect(Object.keys(counts)).toEqual([
      "myOrdersCount",
      "newOrdersCount",
      "priorityOrdersCount",
      "pendingOrdersCount",
      "completedOrdersCount",
      "awaitingOrdersCount",
      "awaitingGovtCount",
      "futureOrdersCount",
      "contactCustomerOrdersCount",
      "customerCalledCount",
      "deletedOrdersCount",
      "allOrdersCount",
      "refundOrdersCount",
      "chargeBack",
    ]);
    expect(counts).toEqual({
      myOrdersCount: 7,
      newOrdersCount: 2,
      priorityOrdersCount: 2,
      pendingOrdersCount: 3,
      completedOrdersCount: 1,
      awaitingOrdersCount: 1,
      awaitingGovtCount: 1,
      futureOrdersCount: 2,
      contactCustomerOrdersCount: 1,
      customerCalledCount: 1,
      deletedOrdersCount: 1,
      allOrdersCount: 18,
      refundOrdersCount: 2,
      chargeBack: 1,
    });
    const report = await folderReport(harness.driver.query, maria, scenario.orderIds().map((id) => [id, scenario.state(id)]));
    for (const [key, { count, total, listed, expected }] of Object.entries(report)) {
      expect({ key, listed }).toEqual({ key, listed: expected });
      expect({ key, count, total }).toEqual({ key, count: listed.length, total: listed.length });
    }
  });

  it("QUEUE-14: My Orders counts whoever asks", async () => {
    expect((await folderCounts(harness.driver.query, jose)).myOrdersCount).toBe(1);
    expect((await folderCounts(harness.driver.query, { today: TODAY, staffId: "nobody" })).myOrdersCount).toBe(0);
  });
});
