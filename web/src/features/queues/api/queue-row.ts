import type { QueueListRow } from "@etd/contract";

/**
 * A row of a queue list as the server sends it: the contract's list row (000 §3 list item plus
 * the display fields of 001 §3). The server formats every date for its list (QUEUE-6), so the
 * table shows them as they come.
 */
export type QueueRow = QueueListRow;

/** One page of a list: the rows, and the total the pagination counts (QUEUE-7). */
export interface QueuePage {
  readonly rows: readonly QueueRow[];
  readonly total: number;
}

/** What a list call answered: its page, or the server's refusal to show it (e.g. 403 on Order History). */
export type QueuePageAnswer = { readonly ok: true; readonly page: QueuePage } | { readonly ok: false; readonly message: string };
