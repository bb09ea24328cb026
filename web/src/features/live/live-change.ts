import { isProjection, type Projection } from "../../lib/query-keys.ts";

/** The `change` event of /api/live: which read model moved, to which log position. */
export interface LiveChange {
  readonly projection: Projection;
  readonly position: string;
}

/** The event's data, or undefined for anything this app does not know (a newer server's read model). */
export const parseLiveChange = (data: string): LiveChange | undefined => {
  try {
    const value = JSON.parse(data) as { projection?: unknown; position?: unknown };
    if (!isProjection(value.projection)) return undefined;
    return { projection: value.projection, position: typeof value.position === "string" ? value.position : "" };
  } catch {
    return undefined;
  }
};

/** Wait before the n-th reconnection attempt in a row: 1 s, 2 s, 4 s… up to 30 s. */
export const reconnectDelayMs = (attempt: number): number => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
