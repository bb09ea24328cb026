import { randomUUID } from "node:crypto";
import * as Result from "effect/Result";
import { openPostgresDriver, type SqlDriver } from "@etd/event-store";
import { createTestDatabase } from "@etd/infra/test-database";
import type { AnyEvent, OrderStatus, StaffId } from "@etd/events";
import { decodePlaceOrderRequest, type PlaceOrderInput } from "@etd/write";
import { generateDemoOrders } from "@etd/demo";
import type { ProjectedEvent } from "../src/engine/projection.ts";
import { folderCounts, ordersList, QUEUE_KEYS, queueProjection } from "../src/queue/index.ts";

/*
 * P3: the queries staff run all day, at 1,000,000 orders — page 1 of each of the fourteen folders
 * and the folder counts — p95, against a primary-key lookup of one order row p95 in the same run
 * on the same database. The last line is `P3 page_vs_pk=<ratio> page_p95_ms=<ms>`; goal ≤ 3.
 *
 * The read model is filled by the queue projection's own apply, fed synthetic events in batches
 * (the event store is not the subject here): orders placed over the last 90 days, about 10% due
 * later, and most of the older ones assigned to one of five staff members and moved on.
 */

const ORDERS = Number(process.env.P3_ORDERS ?? 1_000_000);
const SAMPLES = Number(process.env.P3_SAMPLES ?? 60);
const BATCH = 5000;

const STAFF = ["Alicia Ramos", "Marco Villanueva", "Tessa Cruz", "Carlo Mendoza", "Nina Bautista"].map((name, i) => ({ id: `staff-${i + 1}` as StaffId, name }));
const STATUSES: OrderStatus[] = ["Pending", "Awaiting", "AwaitingGovt", "ContactCustomer", "CustomerCalled", "Completed", "Completed", "Completed", "Refund", "ChargeBack", "Deleted"];

const metadata = (at: Date) => ({ actor: { kind: "system" as const, name: "benchmark" }, correlationId: "bench", occurredAt: at.toISOString() });

let sequence = 0;
const logged = (event: Omit<AnyEvent, "metadata">, at: Date, streamPosition: number): ProjectedEvent => {
  sequence++;
  return {
    event: { ...event, metadata: metadata(at) } as AnyEvent,
    eventId: randomUUID(),
    streamId: `order-${(event.data as { orderId: string }).orderId}`,
    streamPosition: BigInt(streamPosition),
    position: { tx: BigInt(sequence), seq: BigInt(sequence) },
    recordedAt: at,
  };
};

/** One order's events: placed, and for most older ones an assignment and a status move. */
const orderEvents = (template: PlaceOrderInput, n: number, now: number): ProjectedEvent[] => {
  const orderId = String(1_000_000 + n);
  const created = new Date(now - ((n * 7919) % (90 * 86_400)) * 1000);
  const day = created.toISOString().slice(0, 10);
  const future = n % 10 === 0;
  const processingDate = future ? new Date(created.getTime() + (1 + (n % 120)) * 86_400_000).toISOString().slice(0, 10) : day;
  const placed = logged(
    { type: "OrderPlaced", data: { ...template, orderId, createdAt: created.toISOString(), processingDate, processingMode: n % 4 === 0 ? "priority" : "standard" } } as never,
    created,
    1,
  );
  const roll = (n * 31) % 100;
  if (future || roll < 30) return [placed];
  const staff = STAFF[n % STAFF.length]!;
  const from = n % 4 === 0 ? "Priority" : "New";
  const assignedAt = new Date(created.getTime() + 3_600_000);
  const assigned = logged({ type: "OrderAssigned", data: { orderId, from, assignee: staff } } as never, assignedAt, 2);
  const to = STATUSES[roll % STATUSES.length]!;
  if (to === "Pending") return [placed, assigned];
  const moved = logged({ type: "OrderStatusChanged", data: { orderId, from: "Pending", to } } as never, new Date(assignedAt.getTime() + 3_600_000), 3);
  return [placed, assigned, moved];
};

const p95 = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;

const time = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

const fill = async (driver: SqlDriver) => {
  const table = (base: string) => `${base}_bench`;
  await driver.transaction(async (query) => {
    await queueProjection.migrate(query, table);
    for (const base of queueProjection.tables) await query(`create view ${base} as select * from ${table(base)}`);
  });
  const templates = generateDemoOrders({ seed: 3, count: 200, now: new Date() }).map((body) => {
    const decoded = decodePlaceOrderRequest(body);
    if (Result.isFailure(decoded)) throw new Error("demo order does not decode");
    return decoded.success;
  });
  const now = Date.now();
  const started = performance.now();
  for (let first = 0; first < ORDERS; first += BATCH) {
    const events: ProjectedEvent[] = [];
    for (let n = first; n < Math.min(ORDERS, first + BATCH); n++) events.push(...orderEvents(templates[n % templates.length]!, n, now));
    await driver.transaction((query) => queueProjection.apply(events, query, table));
    if ((first / BATCH) % 20 === 0) console.log(`  ${first + BATCH} orders projected (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await driver.query("analyze");
  console.log(`${ORDERS} orders (${sequence} events) projected in ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

const main = async () => {
  const database = await createTestDatabase();
  const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 2 });
  try {
    await fill(driver);
    const today = new Date().toISOString().slice(0, 10);
    const viewer = { today, staffId: STAFF[2]!.id };
    const pk: number[] = [];
    const pages: number[] = [];
    const perFolder = new Map<string, number[]>();
    // Warm up the caches the way a working day would, then sample every query in turns.
    for (let round = -5; round < SAMPLES; round++) {
      const orderId = String(1_000_000 + Math.floor(Math.random() * ORDERS));
      const lookup = await time(() => driver.query("select * from queue_orders where order_id = $1", [orderId]));
      const counts = await time(() => folderCounts(driver.query, viewer));
      if (round >= 0) {
        pk.push(lookup);
        pages.push(counts);
        perFolder.set("counts", [...(perFolder.get("counts") ?? []), counts]);
      }
      for (const queueKey of QUEUE_KEYS) {
        const page = await time(() => ordersList(driver.query, { ...viewer, queueKey, page: 1, limit: 10 }));
        if (round >= 0) {
          pages.push(page);
          perFolder.set(queueKey, [...(perFolder.get(queueKey) ?? []), page]);
        }
      }
    }
    for (const [name, samples] of perFolder) console.log(`  ${name.padEnd(22)} p95 ${p95(samples).toFixed(2)} ms`);
    const pkP95 = p95(pk);
    const pageP95 = p95(pages);
    console.log(`primary-key lookup p95: ${pkP95.toFixed(2)} ms; page 1 and counts p95: ${pageP95.toFixed(2)} ms (${pages.length} queries)`);
    console.log(`P3 page_vs_pk=${(pageP95 / pkP95).toFixed(2)} page_p95_ms=${pageP95.toFixed(2)}`);
  } finally {
    await driver.close();
    await database.drop();
  }
};

await main();
