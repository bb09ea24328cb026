import type { SealedSqlEventStore, SqlDriver } from "@etd/event-store";
import { ALL_PROJECTIONS } from "../src/all-projections.ts";
import { startProjector } from "../src/engine/projector.ts";

/**
 * Builds every read model from the start of the log, as `projections rebuild all` does, until each
 * is live at the head; answers how long it took, in seconds. Shared by P2 and P16.
 */
export const rebuildAll = async (driver: SqlDriver, store: SealedSqlEventStore): Promise<number> => {
  const started = performance.now();
  const projector = await startProjector({ driver, store, projections: ALL_PROJECTIONS });
  try {
    await projector.ready;
  } finally {
    await projector.stop();
  }
  return (performance.now() - started) / 1000;
};
