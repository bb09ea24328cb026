import { GATEWAYS_STREAM, GatewayId, LANDING_DOMAINS, type LandingDomain } from "@etd/events";
import { openPostgresDriver, openSealedSqlEventStore, type EventStore } from "@etd/event-store";
import { gatewayDecider, handleCommand, type GatewayCommand } from "@etd/write";

/*
 * Payment gateways as an Admin would set them under Gateway Setting (ADMIN-2), straight into a
 * store: the product has no screen to register one (demo mode does). Kept free of the API's code,
 * so the browser tests can use it on the database of the API they run as a process.
 */

const run = async (store: EventStore, command: GatewayCommand) => {
  const outcome = await handleCommand(gatewayDecider, command, {
    store,
    streamId: GATEWAYS_STREAM,
    metadata: { actor: { kind: "system", name: "test-setup" }, correlationId: "test-setup" },
  });
  if (!outcome.ok && outcome.refusal.reason !== "conflict") throw new Error(outcome.refusal.message);
};

export const activateGatewayIn = async (store: EventStore, gatewayName: string, domains: readonly LandingDomain[]): Promise<void> => {
  const gatewayId = GatewayId.make(`invoice-${gatewayName.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`);
  await run(store, { type: "RegisterGateway", gatewayId, gatewayName });
  for (const domain of domains) await run(store, { type: "SelectGateway", gatewayId, domain });
};

/** The same on the database of an API running in another process (the browser tests'). */
export const activateGatewayOn = async (databaseUrl: string, gatewayName = "Stripe"): Promise<void> => {
  const driver = await openPostgresDriver({ connectionString: databaseUrl, maxConnections: 2 });
  try {
    const store = await openSealedSqlEventStore(driver);
    await activateGatewayIn(store, gatewayName, LANDING_DOMAINS);
  } finally {
    await driver.close();
  }
};
