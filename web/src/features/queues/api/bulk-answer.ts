import type { BulkChangeAnswer } from "@etd/contract";

/**
 * The data of a bulk command's answer (QUEUE-8..11): which orders changed and, when some were
 * refused (status 0), which and why. Every order is changed on its own, so the changed ones stay
 * changed; the screen refetches and shows the server's message either way.
 */
export type OrdersChanged = BulkChangeAnswer;
