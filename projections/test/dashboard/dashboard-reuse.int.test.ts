import type { Query } from "@etd/event-store";
import type { AnyEvent, EventMetadata, WithoutMetadata } from "@etd/events";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardProjection, dashboardReader } from "../../src/dashboard/index.ts";
import { migrateRegistry } from "../../src/engine/registry.ts";
import { openHarness, toLog, type Harness } from "../support/projection-harness.ts";

const available = await postgresAvailable();

/*
 * The dashboard read once per change (P14, ADR 0045), on PostgreSQL: reads at one read-model
 * position share one reading; an event applied moves the position and the next read shows it; the
 * clock-driven figures are read again after the reuse time, or when the clock goes back.
 */

const REUSE_MS = 10_000;
const metadata: Omit<EventMetadata, "occurredAt"> = { actor: { kind: "system", name: "test" }, correlationId: "reuse" };
const START = new Date("2025-03-14T08:00:00.000Z");

const placed = (orderId: string): { event: WithoutMetadata<AnyEvent>; streamId: string; metadata: typeof metadata } => ({
  streamId: `order-${orderId}`,
  metadata,
  event: {
    type: "OrderPlaced",
    data: {
      orderId,
      processingMode: "standard",
      landingDomain: "primary",
      processingDate: "2025-03-14",
      createdAt: START.toISOString(),
      application: { date_of_travel: "2025-03-20" },
      personal: { citizenship: "Philippines", first_name: "Ana", last_name: "Cruz", email: `ana${orderId}@example.com`, phone_number: "9170000000", country_phone_code: "63" },
    },
  } as WithoutMetadata<AnyEvent>,
});

/** The statements a reader sends, by their name or their text's first words. */
const counting = (query: Query, sent: string[]): Query => async (text, params, name) => {
  sent.push(name ?? text.slice(0, 40));
  return query(text, params, name);
};

describe.skipIf(!available)("the dashboard read once per change (P14, issue 27)", () => {
  let harness: Harness;
  const moveCheckpoint = (seq: number) =>
    harness.driver.query("update projection_builds set checkpoint_tx = $1, checkpoint_seq = $1 where name = $2 and status = 'live'", [seq, dashboardProjection.name]);

  beforeAll(async () => {
    harness = await openHarness([dashboardProjection]);
    await migrateRegistry(harness.driver);
    await harness.driver.query("insert into projection_builds (name, build, version, status) values ($1, 1, $2, 'live')", [dashboardProjection.name, dashboardProjection.version]);
    await harness.apply(toLog([placed("5001")], START));
    await moveCheckpoint(1);
  }, 60_000);
  afterAll(async () => harness?.close());

  it("reads at one position share one reading: the second sends only the position lookup", async () => {
    const sent: string[] = [];
    const reader = dashboardReader(counting(harness.driver.query, sent), REUSE_MS);
    const now = new Date(START.getTime() + 30 * 60_000);
    const first = await reader.read({ now });
    const firstSent = sent.length;
    const again = await reader.read({ now: new Date(now.getTime() + REUSE_MS - 1) });
    expect(again).toEqual(first);
    expect(again.asOf).toBe(now.toISOString());
    // One statement: the registry's row of the dashboard's builds.
    expect(sent.slice(firstSent)).toHaveLength(1);
    expect(sent[firstSent]).toContain("projection_builds");
    expect(first.backlog.find((row) => row.folder === "newOrder")?.underHour).toBe(1);
  });

  it("an event applied moves the position, and the next read shows it", async () => {
    const reader = dashboardReader(harness.driver.query, REUSE_MS);
    const now = new Date(START.getTime() + 40 * 60_000);
    const before = await reader.read({ now });
    expect(before.backlog.find((row) => row.folder === "newOrder")?.underHour).toBe(1);
    await harness.apply(toLog([placed("5002")], new Date(START.getTime() + 60_000)));
    await moveCheckpoint(2);
    const after = await reader.read({ now });
    expect(after.backlog.find((row) => row.folder === "newOrder")?.underHour).toBe(2);
  });

  it("the clock-driven figures are read again after the reuse time, and when the clock goes back", async () => {
    const reader = dashboardReader(harness.driver.query, REUSE_MS);
    const now = new Date(START.getTime() + 50 * 60_000);
    expect((await reader.read({ now })).backlog.find((row) => row.folder === "newOrder")?.underHour).toBe(2);
    // Past the reuse time, and past the hour: both orders move from "under 1 h" to "1–4 h".
    const later = new Date(START.getTime() + 70 * 60_000);
    const read = await reader.read({ now: later });
    expect(read.asOf).toBe(later.toISOString());
    expect(read.backlog.find((row) => row.folder === "newOrder")).toMatchObject({ underHour: 0, oneToFourHours: 2 });
    const back = new Date(later.getTime() - 1000);
    expect((await reader.read({ now: back })).asOf).toBe(back.toISOString());
  });

  it("the team's figures and a member's are kept apart", async () => {
    const reader = dashboardReader(harness.driver.query, REUSE_MS);
    const now = new Date(START.getTime() + 50 * 60_000);
    const team = await reader.read({ now });
    const own = await reader.read({ now, staffId: "nobody" });
    expect(team.scope).toBe("team");
    expect(own.scope).toBe("own");
    expect(own.backlog.find((row) => row.folder === "newOrder")?.underHour).toBe(0);
  });
});
