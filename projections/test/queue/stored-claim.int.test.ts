import { openPgliteDriver } from "@etd/event-store";
import { encodeEvent } from "@etd/events";
import { describe, expect, it } from "vitest";
import { physicalTable, type ProjectedEvent } from "../../src/engine/projection.ts";
import { toProjected } from "../../src/engine/to-projected.ts";
import { folderCounts, ordersList, queueProjection } from "../../src/queue/index.ts";
import { createScenario, MARIA, TODAY } from "./queue-scenario.ts";

/*
 * ADR 0013: assignments stored before the rename carry the type "OrderClaimed". The projector
 * decodes every recorded event through `toProjected`; this feeds it the stored form, so a
 * rebuild over an old log must still list the order as Maria's.
 */
const asStoredBeforeRename = (projected: ProjectedEvent): ProjectedEvent => {
  const { type, schemaVersion, data, metadata } = encodeEvent(projected.event);
  return toProjected({
    eventId: projected.eventId,
    streamId: projected.streamId,
    streamPosition: projected.streamPosition,
    position: projected.position,
    recordedAt: projected.recordedAt,
    type: type === "OrderAssigned" ? "OrderClaimed" : type,
    schemaVersion,
    data,
    metadata,
  });
};

describe("an assignment stored as OrderClaimed v1, on the projector path", () => {
  it("QUEUE-9: the queue lists the order as Pending in the assignee's My Orders", async () => {
    const driver = await openPgliteDriver("memory://");
    try {
      const table = (base: string) => physicalTable(queueProjection, base);
      await driver.transaction(async (query) => {
        await queueProjection.migrate(query, table);
        for (const base of queueProjection.tables) await query(`create or replace view ${base} as select * from ${table(base)}`);
      });
      const scenario = createScenario();
      const orderId = scenario.place({ processing_mode: "standard", processing_date: TODAY, created_at: `${TODAY}T01:00:00Z` });
      scenario.assign(orderId, MARIA);
      const log = scenario.log();
      const stored = log.map(asStoredBeforeRename);
      expect(stored.map((p) => p.event.type)).toEqual(["OrderPlaced", "OrderAssigned"]);
      await driver.transaction((query) => queueProjection.apply(stored, query, table));

      const viewer = { today: TODAY, staffId: MARIA.id };
      expect(await folderCounts(driver.query, viewer)).toMatchObject({ myOrdersCount: 1, pendingOrdersCount: 1 });
      const page = await ordersList(driver.query, { queueKey: "myOrder", page: 1, limit: 5, ...viewer });
      expect(page.rows).toMatchObject([{ order_id: orderId, status: "Pending", assign_to: MARIA.name }]);
    } finally {
      await driver.close();
    }
  }, 60_000);
});
