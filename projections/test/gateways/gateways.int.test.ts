import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { postgresAvailable } from "@etd/infra/test-database";
import { GATEWAYS_STREAM, type EventMetadata, type GatewayEvent, type GatewayId, type StaffId, type WithoutMetadata } from "@etd/events";
import { foldEvents, gatewayDecider, isRefusal, type GatewayCommand } from "@etd/write";
import { physicalTable } from "../../src/engine/projection.ts";
import { openHarness, toLog, type Harness } from "../support/projection-harness.ts";
import { gatewaysProjection, paymentGateways } from "../../src/gateways/index.ts";

const metadata: Omit<EventMetadata, "occurredAt"> = {
  actor: { kind: "staff", id: "admin-1" as StaffId, name: "Ana Admin", role: "Admin" },
  correlationId: "gateway-test",
};

/** Runs gateway commands through the real decider on the one `gateways` stream. */
const history = (commands: readonly GatewayCommand[]) => {
  const past: GatewayEvent[] = [];
  const entries: { event: WithoutMetadata<GatewayEvent>; streamId: string; metadata: typeof metadata }[] = [];
  for (const command of commands) {
    const decision = gatewayDecider.decide(command, foldEvents(gatewayDecider, past));
    if (isRefusal(decision)) throw new Error(decision.message);
    for (const event of decision) {
      past.push({ ...event, metadata: { ...metadata, occurredAt: "2025-03-14T08:00:00.000Z" } } as GatewayEvent);
      entries.push({ event, streamId: GATEWAYS_STREAM, metadata });
    }
  }
  return toLog(entries);
};

const register = (id: string, name: string): GatewayCommand => ({ type: "RegisterGateway", gatewayId: id as GatewayId, gatewayName: name });
const select = (id: string, domain: "primary" | "secondary"): GatewayCommand => ({ type: "SelectGateway", gatewayId: id as GatewayId, domain });

const GATEWAYS = [register("stripe", "Stripe"), register("paypal", "PayPal"), register("authorize", "Authorize.Net")];

const activeIds = async (harness: Harness) => {
  const list = await paymentGateways(harness.driver.query);
  return {
    primary: list.filter((g) => g.is_secondary_domain === 0 && g.is_active === "1").map((g) => g.id),
    secondary: list.filter((g) => g.is_secondary_domain === 1 && g.is_active === "1").map((g) => g.id),
  };
};

describe.skipIf(!(await postgresAvailable()))("gateways projection (ADMIN-2)", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await openHarness([gatewaysProjection]);
  });
  afterAll(async () => harness?.close());

  const reset = async () => {
    const tables = gatewaysProjection.tables.map((base) => physicalTable(gatewaysProjection, base)).join(", ");
    await harness.driver.query(`truncate ${tables}`);
  };

  it("ADMIN-2: lists every gateway once per domain, primary first, none active before a choice", async () => {
    await reset();
    await harness.apply(history(GATEWAYS));
    expect(await paymentGateways(harness.driver.query)).toEqual([
      { id: "stripe", gateway_name: "Stripe", is_active: "0", is_secondary_domain: 0 },
      { id: "paypal", gateway_name: "PayPal", is_active: "0", is_secondary_domain: 0 },
      { id: "authorize", gateway_name: "Authorize.Net", is_active: "0", is_secondary_domain: 0 },
      { id: "stripe", gateway_name: "Stripe", is_active: "0", is_secondary_domain: 1 },
      { id: "paypal", gateway_name: "PayPal", is_active: "0", is_secondary_domain: 1 },
      { id: "authorize", gateway_name: "Authorize.Net", is_active: "0", is_secondary_domain: 1 },
    ]);
  });

  it("ADMIN-2: each domain shows its own active gateway, and a switch moves it", async () => {
    await reset();
    await harness.apply(history([...GATEWAYS, select("stripe", "primary"), select("paypal", "secondary")]));
    expect(await activeIds(harness)).toEqual({ primary: ["stripe"], secondary: ["paypal"] });

    await reset();
    await harness.apply(
      history([...GATEWAYS, select("stripe", "primary"), select("paypal", "secondary"), select("authorize", "primary"), select("stripe", "secondary")]),
    );
    expect(await activeIds(harness)).toEqual({ primary: ["authorize"], secondary: ["stripe"] });
  });

  it("ADMIN-2: after any switches, in batches of any size, exactly one gateway is active per chosen domain: the last one chosen", async () => {
    const choice = fc.record({ gateway: fc.constantFrom("stripe", "paypal", "authorize"), domain: fc.constantFrom("primary" as const, "secondary" as const) });
    await fc.assert(
      fc.asyncProperty(fc.array(choice, { maxLength: 20 }), fc.integer({ min: 1, max: 8 }), async (choices, batchSize) => {
        await reset();
        // The decider drops a re-selection of the active gateway; the projection sees the rest.
        await harness.apply(history([...GATEWAYS, ...choices.map((c) => select(c.gateway, c.domain))]), batchSize);
        const last = (domain: string) => choices.filter((c) => c.domain === domain).at(-1)?.gateway;
        const expected = (domain: string) => (last(domain) ? [last(domain)] : []);
        expect(await activeIds(harness)).toEqual({ primary: expected("primary"), secondary: expected("secondary") });
      }),
      { numRuns: 30 },
    );
  });
});
