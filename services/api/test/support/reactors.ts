import { comparePositions, formatPosition, parsePosition, type GlobalPosition, type SqlDriver } from "@etd/event-store";

/** Waits until a reactor's checkpoint has passed `position` (its effects for it are done). */
export const waitForReactor = async (driver: SqlDriver, name: string, position: GlobalPosition | string, timeoutMs = 15_000): Promise<void> => {
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
