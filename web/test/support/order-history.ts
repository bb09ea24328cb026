import { openPostgresDriver, openSealedSqlEventStore } from "@etd/event-store";
import { orderStream } from "@etd/events";
import { handleCommand, orderDecider, type OrderCommand } from "@etd/write";
import type { E2eApp } from "./e2e-app.ts";

/** One order command and the moment it is decided at. */
export interface HistoryStep {
  readonly at: number;
  readonly command: OrderCommand;
}

/**
 * Writes an order history into the API's own store, each command decided by the order's decider
 * as of its moment: the past the service-level clock and the dashboard read (issue 27), which no
 * endpoint can backdate.
 */
export const writeOrderHistory = async (app: E2eApp, steps: readonly HistoryStep[], correlationId: string): Promise<void> => {
  const driver = await openPostgresDriver({ connectionString: app.databaseUrl, maxConnections: 2 });
  try {
    const store = await openSealedSqlEventStore(driver);
    for (const { at, command } of steps) {
      const outcome = await handleCommand(orderDecider, command, {
        store,
        streamId: orderStream(command.orderId),
        metadata: { actor: { kind: "system", name: "test-setup" }, correlationId },
        now: () => new Date(at),
      });
      if (!outcome.ok) throw new Error(`${command.type} ${command.orderId}: ${outcome.refusal.message}`);
    }
  } finally {
    await driver.close();
  }
};
