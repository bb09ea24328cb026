import { postgresAvailable } from "@etd/infra/test-database";
import { dueAt, type AnyEvent, type OrderId, type ServiceLevelPolicySet, type WithoutMetadata } from "@etd/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectedEvent } from "../../src/engine/projection.ts";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import { ordersList, queueProjection, searchOrders, selectOrders, type QueueKey } from "../../src/queue/index.ts";
import { clockOf, evolveQueueRow, type QueueRow } from "../../src/queue/queue-projection.ts";
import type { OrdersListParams } from "../../src/queue/queue-queries.ts";
import { createScenario, MARIA, TODAY } from "./queue-scenario.ts";

/*
 * Issue 27 (ADR 0036): the queue read model keeps each order's service-level clock, folded from
 * the order's own events under the policy in force when it was paid, and lists, sorts and
 * filters by when it is due. Every event here has its own moment (the scenario's log, retimed).
 */

const available = await postgresAvailable();
const viewer = { today: TODAY, staffId: MARIA.id };

const T0 = Date.parse(`${TODAY}T08:00:00.000Z`);
const HOUR = 3_600_000;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const policy = (version: number, priority: number, standard: number): WithoutMetadata<ServiceLevelPolicySet> => ({
  type: "ServiceLevelPolicySet",
  data: { version, allowedMinutes: { standard, priority, future: 1440 } },
});

/** The order's document (only its type and order id move the clock). */
const documentUploaded = (orderId: OrderId) =>
  ({
    type: "DocumentUploaded",
    data: {
      orderId,
      contentType: "application/pdf",
      sizeBytes: 1000,
      uploadedBy: { id: MARIA.id, name: MARIA.name },
      provider: "AWS",
      personal: { to: "traveller@example.com", fileName: "doc.pdf", storedPath: `uploads/${orderId}/doc.pdf` },
    },
  }) as unknown as WithoutMetadata<AnyEvent>;

/**
 * The story, each step at its own moment after T0 (08:00 UTC on TODAY):
 * - A: Priority, paid at T0 under the default policy (4 h): due 12:00. Assigned to Maria.
 * - B: Standard, paid at T0 (24 h), waits in New: due 08:00 tomorrow.
 * - at T0 + 1 h an Admin sets policy 1: Priority 1 h, Standard 2 h; it applies to orders paid after it.
 * - C: Priority, paid at T0 + 2 h under policy 1: due 11:00. Assigned to Maria.
 * - D: Standard, paid at T0 + 2 h under policy 1: due 12:00, the same moment as A. Assigned to Maria.
 * - E: Standard, paid at T0 (24 h), assigned; Awaiting Customer from T0 + 1 h to T0 + 4 h, then
 *   Pending again: the 3 h paused do not count, so due at T0 + 27 h.
 * - F: Priority, paid at T0, assigned; Awaiting Customer from T0 + 1 h: paused with 3 h left.
 * - G: Priority, paid at T0, assigned; its document uploaded at T0 + 2 h: met.
 */
const story = () => {
  const scenario = createScenario({ seed: 27 });
  const times: number[] = [];
  const at = (ms: number, step: () => void) => {
    const before = scenario.log().length;
    step();
    for (let i = before; i < scenario.log().length; i++) times[i] = ms;
  };
  const place = (n: number, mode: "priority" | "standard") =>
    scenario.place({ order_id: String(270_000 + n), processing_mode: mode, processing_date: TODAY, created_at: iso(T0 + n * 1000) });
  const ids = {} as Record<"A" | "B" | "C" | "D" | "E" | "F" | "G", OrderId>;
  at(T0, () => {
    ids.A = place(1, "priority");
    ids.B = place(2, "standard");
    ids.E = place(5, "standard");
    ids.F = place(6, "priority");
    ids.G = place(7, "priority");
  });
  at(T0 + 10 * MINUTE, () => {
    for (const id of [ids.A, ids.E, ids.F, ids.G]) scenario.assign(id, MARIA);
  });
  at(T0 + HOUR, () => {
    scenario.staffEvent(policy(1, 60, 120), "service-levels");
    scenario.move(ids.E, "Awaiting", MARIA);
    scenario.move(ids.F, "Awaiting", MARIA);
  });
  at(T0 + 2 * HOUR, () => {
    ids.C = place(3, "priority");
    ids.D = place(4, "standard");
    scenario.staffEvent(documentUploaded(ids.G), `order-${ids.G}`);
  });
  at(T0 + 2 * HOUR + 10 * MINUTE, () => {
    scenario.assign(ids.C, MARIA);
    scenario.assign(ids.D, MARIA);
  });
  at(T0 + 4 * HOUR, () => scenario.move(ids.E, "Pending", MARIA));
  const log: ProjectedEvent[] = scenario.log().map((entry, i) => {
    const occurredAt = iso(times[i]!);
    return { ...entry, recordedAt: new Date(occurredAt), event: { ...entry.event, metadata: { ...entry.event.metadata, occurredAt } } as AnyEvent };
  });
  return { ids, log };
};

/** The pure fold over the whole log, as the audit's folder-at-a-moment replays it. */
const foldAll = (log: readonly ProjectedEvent[]) => {
  const rows = new Map<string, QueueRow>();
  const policies: ServiceLevelPolicySet[] = [];
  for (const { event } of log) {
    if (event.type === "ServiceLevelPolicySet") policies.push(event);
    if (!("orderId" in event.data)) continue;
    const row = evolveQueueRow(rows.get(event.data.orderId), event, policies);
    if (row !== undefined) rows.set(event.data.orderId, row);
  }
  return rows;
};

describe("issue 27: the queue row's clock (pure fold)", () => {
  const { ids, log } = story();
  const rows = foldAll(log);
  const due = (id: OrderId) => dueAt(clockOf(rows.get(id)!)) ?? null;

  it("a clock starts at payment under the policy in force then; a policy change applies to orders paid after it only", () => {
    expect(rows.get(ids.A)).toMatchObject({ clockPolicyVersion: 0, clockKind: "priority", clockAllowedMs: 4 * HOUR });
    expect(due(ids.A)).toBe(iso(T0 + 4 * HOUR));
    expect(rows.get(ids.C)).toMatchObject({ clockPolicyVersion: 1, clockAllowedMs: HOUR });
    expect(due(ids.C)).toBe(iso(T0 + 3 * HOUR));
    expect(due(ids.D)).toBe(iso(T0 + 4 * HOUR));
    expect(due(ids.B)).toBe(iso(T0 + 24 * HOUR));
  });

  it("3 h paused in Awaiting Customer do not count; a paused clock has no due moment; the document meets it", () => {
    expect(rows.get(ids.E)).toMatchObject({ clockState: "running", clockUsedMs: HOUR });
    expect(due(ids.E)).toBe(iso(T0 + 27 * HOUR));
    expect(rows.get(ids.F)).toMatchObject({ clockState: "paused", clockUsedMs: HOUR });
    expect(due(ids.F)).toBeNull();
    expect(rows.get(ids.G)).toMatchObject({ clockState: "met", clockUsedMs: 2 * HOUR });
    expect(due(ids.G)).toBeNull();
  });
});

describe.skipIf(!available)("issue 27: due in the queue read model (SQL)", () => {
  let harness: Harness;
  let rebuilt: Harness;
  const { ids, log } = story();
  const now = new Date(T0 + 3.5 * HOUR);
  const list = (queueKey: QueueKey, options: Partial<OrdersListParams> = {}) =>
    ordersList(harness.driver.query, { queueKey, page: 1, limit: 10, ...viewer, ...options });
  const idsOf = (page: { rows: readonly { order_id: string }[] }) => page.rows.map((row) => row.order_id);

  beforeAll(async () => {
    [harness, rebuilt] = await Promise.all([openHarness([queueProjection]), openHarness([queueProjection])]);
    await harness.apply(log, 500);
    // A rebuild, or another process, reads the same log in other batches.
    await rebuilt.apply(log, 1);
  });
  afterAll(async () => {
    await harness?.close();
    await rebuilt?.close();
  });

  it("each list item carries due_at, the clock's state and a paused clock's time left", async () => {
    const mine = await list("myOrder", { limit: "All" });
    const byId = new Map(mine.rows.map((row) => [row.order_id, row]));
    expect(byId.get(ids.A)).toMatchObject({ due_at: iso(T0 + 4 * HOUR), clock_state: "running", time_left_ms: null });
    expect(byId.get(ids.E)).toMatchObject({ due_at: iso(T0 + 27 * HOUR), clock_state: "running", time_left_ms: null });
    expect(byId.get(ids.F)).toMatchObject({ due_at: null, clock_state: "paused", time_left_ms: 3 * HOUR, due: "paused, 3 h left" });
    expect(byId.get(ids.G)).toMatchObject({ due_at: null, clock_state: "met", time_left_ms: null, due: "met" });
    // The Due cell the export keeps: the due moment in the list's date style.
    expect(byId.get(ids.C)?.due).toBe("14/03/2025 11:00:00");
  });

  it("sort=due: overdue first, then earliest due, Priority before Standard at the same moment, clocks not running last (newest first)", async () => {
    expect(idsOf(await list("myOrder", { sort: "due" }))).toEqual([ids.C, ids.A, ids.D, ids.E, ids.G, ids.F]);
    // Without it, newest first as before.
    expect(idsOf(await list("myOrder"))).toEqual([ids.G, ids.F, ids.E, ids.D, ids.C, ids.A]);
  });

  it("due=overdue and due=within-hour keep those orders as of now, and the total counts them", async () => {
    const overdue = await list("myOrder", { due: "overdue", now });
    expect(idsOf(overdue)).toEqual([ids.C]);
    expect(overdue.total).toBe(1);
    const soon = await list("myOrder", { due: "within-hour", now, sort: "due" });
    expect(idsOf(soon)).toEqual([ids.A, ids.D]);
    expect(soon.total).toBe(2);
    // Paging keeps the filtered total.
    const second = await list("myOrder", { due: "within-hour", now, sort: "due", limit: 1, page: 2 });
    expect([idsOf(second), second.total]).toEqual([[ids.D], 2]);
    // New holds B only, due tomorrow: nothing overdue, nothing due within the hour.
    expect((await list("newOrder", { due: "overdue", now })).total).toBe(0);
    expect((await list("newOrder")).total).toBe(1);
    // At its due moment an order is overdue, and no longer "within the hour".
    const atDue = new Date(T0 + 4 * HOUR);
    expect(idsOf(await list("myOrder", { due: "overdue", now: atDue, sort: "due" }))).toEqual([ids.C, ids.A, ids.D]);
  });

  it("a search and select all follow the filter", async () => {
    const searched = await searchOrders(harness.driver.query, { folderName: "myOrder", searchVal: "27000", start: 0, end: 10, ...viewer, due: "within-hour", now, sort: "due" });
    expect([searched.rows.map((row) => row.order_id), searched.total]).toEqual([[ids.A, ids.D], 2]);
    const selected = await selectOrders(harness.driver.query, { folderName: "myOrder", searchVal: "", limit: 10, ...viewer, due: "overdue", now });
    expect(selected.map((order) => order.orderId)).toEqual([ids.C]);
  });

  it("a rebuild in other batches gives the same rows, the policies table included", async () => {
    const everything = async (h: Harness) => ({
      orders: await h.driver.query("select * from queue_orders order by order_id"),
      levels: await h.driver.query("select version, event from queue_service_levels order by version"),
    });
    const [live, again] = await Promise.all([everything(harness), everything(rebuilt)]);
    expect(again).toEqual(live);
    expect(live.levels.map((row) => row.version)).toEqual([1]);
    expect(live.orders).toHaveLength(7);
  });

  it("the policies table is read by the next batch: an order placed in a later batch starts under the policy set in an earlier one", async () => {
    const later = createScenario({ seed: 28 });
    later.place({ order_id: "279001", processing_mode: "priority", processing_date: TODAY, created_at: iso(T0 + 5 * HOUR) });
    const placed = later.log().map((entry) => {
      const occurredAt = iso(T0 + 5 * HOUR);
      return { ...entry, position: { tx: 9_000n, seq: 9_000n }, event: { ...entry.event, metadata: { ...entry.event.metadata, occurredAt } } as AnyEvent };
    });
    await harness.apply(placed);
    const [row] = (await list("priorityOrder", { limit: "All" })).rows.filter((item) => item.order_id === "279001");
    expect(row?.due_at).toBe(iso(T0 + 6 * HOUR));
  });
});
