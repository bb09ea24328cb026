import { comparePositions, type GlobalPosition, type SqlDriver } from "@etd/event-store";
import { PROJECTION_CHANNEL } from "./projection-channel.ts";

/*
 * Read-your-writes (DESIGN §1): a command answers the position of its last event; a query given
 * that position waits until the live builds of the projections it reads have applied it. NOTIFY
 * wakes the wait; a short poll covers a lost notification.
 */

const reached = async (driver: SqlDriver, position: GlobalPosition, projections: readonly string[]): Promise<boolean> => {
  const rows = await driver.query(
    "select name, checkpoint_tx::text as tx, checkpoint_seq::text as seq from projection_builds where status = 'live' and name = any($1::text[])",
    [projections],
  );
  if (rows.length < projections.length) return false;
  return rows.every((row) => comparePositions({ tx: BigInt(row.tx as string), seq: BigInt(row.seq as string) }, position) >= 0);
};

/** True once every named projection has applied `position`; false if `timeoutMs` passes first. */
export const waitForPosition = async (
  driver: SqlDriver,
  position: GlobalPosition,
  projections: readonly string[],
  timeoutMs = 5000,
): Promise<boolean> => {
  if (await reached(driver, position, projections)) return true;
  let wake = () => {};
  const stopListening = await driver.onNotification(PROJECTION_CHANNEL, () => wake());
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.min(250, Math.max(0, deadline - Date.now())));
      });
      if (await reached(driver, position, projections)) return true;
    }
    return false;
  } finally {
    await stopListening();
  }
};
