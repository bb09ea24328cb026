import type { BulkChangeAnswer } from "@etd/contract";
import type { SelectedOrder } from "@etd/contract";

/**
 * The data of a bulk command's answer (QUEUE-8..11): which orders changed and, when some were
 * refused (status 0), which and why. Every order is changed on its own, so the changed ones stay
 * changed; the screen refetches and shows the server's message either way.
 */
export type OrdersChanged = BulkChangeAnswer;

/**
 * The optional `asSelected` of a bulk command (issue 16 part B): each order as the member saw it
 * when they selected all, so the server leaves alone any that changed since. Absent otherwise.
 */
export const asSelectedField = (asSelected: readonly SelectedOrder[] | undefined): { asSelected?: readonly SelectedOrder[] } =>
  asSelected === undefined ? {} : { asSelected };
