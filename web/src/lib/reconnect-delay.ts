/** Wait before the n-th reconnection attempt in a row to the live feed: 1 s, 2 s, 4 s… up to 30 s. */
export const reconnectDelayMs = (attempt: number): number => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
