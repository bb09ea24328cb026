import fc from "fast-check";
import { postgresAvailable } from "@etd/infra/test-database";
import { OrderStatus, type OrderId } from "@etd/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { physicalTable } from "../../src/engine/projection.ts";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import { QUEUE_TABLES, queueProjection } from "../../src/queue/index.ts";
import { folderReport } from "./queue-oracle.ts";
import { ADMIN, createScenario, JOSE, MARIA, staff } from "./queue-scenario.ts";

const available = await postgresAvailable();

const TEAM = [MARIA, JOSE, staff("staff-tessa", "Tessa Cruz", "Night Staff")] as const;
const PROCESSING_DAYS = ["2025-03-10", "2025-03-14", "2025-03-20", "2025-04-02", "2025-06-30"];
const TODAYS = ["2025-03-09", "2025-03-14", "2025-03-25", "2025-07-01"];
// Every status an order can be moved to: all but the two it is placed in.
const MOVES: readonly OrderStatus[] = OrderStatus.literals.filter((status) => status !== "New" && status !== "Priority");

type Step =
  | { readonly kind: "place"; readonly day: number; readonly priority: boolean }
  | { readonly kind: "assign" | "back" | "refund" | "refunded" | "chargeback" | "erase"; readonly order: number; readonly who: number }
  | { readonly kind: "move"; readonly order: number; readonly who: number; readonly to: number };

const order = fc.nat({ max: 9 });
const who = fc.nat({ max: TEAM.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("place" as const), day: fc.nat({ max: PROCESSING_DAYS.length - 1 }), priority: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("assign" as const), order, who }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("move" as const), order, who, to: fc.nat({ max: MOVES.length - 1 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constantFrom("back" as const, "refund" as const, "refunded" as const, "chargeback" as const, "erase" as const), order, who }),
  },
);

describe.skipIf(!available)("queue counts against random order histories (SHELL-5, QUEUE-7)", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await openHarness([queueProjection]);
  });
  afterAll(async () => harness?.close());

  const reset = () =>
    harness.driver.query(`truncate ${Object.values(QUEUE_TABLES).map((base) => physicalTable(queueProjection, base)).join(", ")}`);

  it("QUEUE-7, SHELL-5: every folder's count equals its list's length, and both match the write side's own fold, for any sequence of commands, any batching, any day and any staff member", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 45 }), fc.integer({ min: 1, max: 20 }), async (steps, batchSize) => {
        await reset();
        const scenario = createScenario({ pool: 12 });
        const ids: OrderId[] = [];
        for (const s of steps) {
          if (s.kind === "place") {
            ids.push(
              scenario.place({
                created_at: `2025-03-01T${String(10 + (ids.length % 12)).padStart(2, "0")}:00:00Z`,
                processing_date: PROCESSING_DAYS[s.day],
                processing_mode: s.priority ? "priority" : "standard",
              }),
            );
            continue;
          }
          const orderId = ids[s.order % Math.max(1, ids.length)];
          if (orderId === undefined) continue;
          const by = TEAM[s.who]!;
          // As a Manager, so that QUEUE-12's read-only rule leaves the story as varied as before.
          const actor = { ...by, role: "Manager" as const };
          // Refusals are part of the story (assigning an order already assigned, refunding twice): skipped.
          switch (s.kind) {
            case "assign":
              scenario.run({ type: "AssignOrder", orderId, assignee: { id: by.id, name: by.name }, now: "2025-03-14T12:00:00.000Z" }, by);
              break;
            case "move":
              scenario.run({ type: "ChangeStatus", orderId, to: MOVES[s.to]!, actor, permanentDelete: false }, by);
              break;
            case "back":
              scenario.run({ type: "MoveOrderToOriginalFolder", orderId, actor }, by);
              break;
            case "refunded":
              scenario.run({ type: "MarkOrderRefunded", orderId, actor }, by);
              break;
            case "erase":
              scenario.run({ type: "ChangeStatus", orderId, to: "Deleted", actor: ADMIN, permanentDelete: true }, ADMIN);
              break;
            case "refund":
            case "chargeback":
              scenario.run(
                {
                  type: "AddRemark",
                  orderId,
                  remark: s.kind,
                  remarkerName: by.name,
                  whatsapp: false,
                  telephone: false,
                  statusRefund: s.kind === "refund",
                  voided: false,
                  chargeBack: s.kind === "chargeback",
                  reportError: false,
                  today: "2025-03-14" as never,
                  actor,
                },
                by,
              );
              break;
          }
        }
        await harness.apply(scenario.log(), batchSize);

        const orders = scenario.orderIds().map((id) => [id, scenario.state(id)] as [OrderId, ReturnType<typeof scenario.state>]);
        for (const today of TODAYS) {
          for (const member of [MARIA, JOSE]) {
            const report = await folderReport(harness.driver.query, { today, staffId: member.id }, orders);
            for (const [key, { count, total, listed, expected }] of Object.entries(report)) {
              expect({ key, today, listed }).toEqual({ key, today, listed: expected });
              expect({ key, today, count, total }).toEqual({ key, today, count: listed.length, total: listed.length });
            }
          }
        }
        // No count row is left at zero or below: the sums stay over live rows only.
        const [{ stale }] = (await harness.driver.query(
          `select count(*)::int as stale from (select n from ${QUEUE_TABLES.statusCounts} union all select n from ${QUEUE_TABLES.intakeDays}
            union all select n from ${QUEUE_TABLES.assigneeCounts}) c where n <= 0`,
        )) as [{ stale: number }];
        expect(stale).toBe(0);
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});
