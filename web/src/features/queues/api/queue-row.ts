/**
 * A row of a queue list as the server sends it (000 §3 list item plus the display fields of
 * 001 §3). The server formats every date for its list (QUEUE-6), so the table shows them as
 * they come. Only the fields the screens read are declared.
 */
export interface QueueRow {
  readonly order_id: string;
  readonly id: string;
  readonly name: string;
  readonly email: string | null;
  readonly telephone: string;
  /** ISO 8601 UTC: the order's Date & Time, for sorting. */
  readonly created_at: string;
  /** YYYY-MM-DD */
  readonly processing_date: string;
  /** "2025-04" */
  readonly process_month: string;
  /** The status as staff read it ("Awaiting Customer"). */
  readonly status: string;
  /** Date & Time, formatted for this list. */
  readonly date: string;
  readonly arrivalDate: string | null;
  readonly departureDate: string | null;
  readonly refundDate: string | null;
  readonly processingDate: string;
  /** "April 2025". */
  readonly processMonth: string;
  /** The assignee's name; "" when unassigned. */
  readonly assign_to: string;
  readonly assign_to_id: string | null;
}

/** One page of a list: the rows, and the total the pagination counts (QUEUE-7). */
export interface QueuePage {
  readonly rows: readonly QueueRow[];
  readonly total: number;
}

/** What a list call answered: its page, or the server's refusal to show it (e.g. 403 on Order History). */
export type QueuePageAnswer = { readonly ok: true; readonly page: QueuePage } | { readonly ok: false; readonly message: string };
