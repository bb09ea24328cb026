import { comparePositions, formatPosition, parsePosition, type EventStore, type GlobalPosition, type SqlDriver } from "@etd/event-store";
import { ALL_PROJECTIONS, waitForPosition } from "@etd/projections";
import { MAIL_REACTOR } from "@etd/reactors";
import { ERASURE_REACTOR } from "@etd/reactors";

/** Waits until a reactor's checkpoint has passed `position` (its effects for it are done). */
export const waitForReactor = async (driver: SqlDriver, name: string, position: GlobalPosition | string, timeoutMs = 60_000): Promise<void> => {
  const target = typeof position === "string" ? parsePosition(position) : position;
  const named = typeof position === "string" ? position : formatPosition(position);
  if (!target) throw new Error(`not a position: ${named}`);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await driver.query("select position from reactor_checkpoints where name = $1", [name]).catch(() => []);
    const at = row ? parsePosition(row.position as string) : undefined;
    if (at && comparePositions(at, target) >= 0) return;
    if (Date.now() > until) throw new Error(`reactor ${name} did not reach ${named} within ${timeoutMs} ms (at ${String(row?.position)})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/**
 * Waits until nothing moves any more: both reactors and every read model have reached the log's
 * head, the sealer has chained every event, and no reactor added to the log meanwhile (the mail reactor appends its mails' events). For
 * tests that compare the whole database before and after.
 */
export const waitForQuiet = async (driver: SqlDriver, store: Pick<EventStore, "headPosition">, timeoutMs = 90_000): Promise<void> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const head = await store.headPosition();
    for (const name of [ERASURE_REACTOR, MAIL_REACTOR]) await waitForReactor(driver, name, head, Math.max(1, until - Date.now()));
    if (!(await waitForPosition(driver, head, ALL_PROJECTIONS.map((p) => p.name)))) throw new Error("the read models did not catch up");
    // The sealer links new events into the global chain a moment after they commit (ADR 0021).
    for (;;) {
      const [row] = await driver.query("select (select count(*) from es_chain) = (select count(*) from es_events) as sealed");
      if (row?.sealed === true) break;
      if (Date.now() > until) throw new Error(`the log was not sealed within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (comparePositions(await store.headPosition(), head) === 0) return;
    if (Date.now() > until) throw new Error(`the log kept moving for ${timeoutMs} ms`);
  }
};
