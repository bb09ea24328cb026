import type { BulkChangeAnswer } from "@etd/contract";
import type { Envelope } from "../../lib/api-client.ts";
import { BULK_COMMANDS, type BulkAction } from "./bulk-commands.ts";

/** How many refusals a result quotes in full before it counts the rest by id. */
const QUOTED_REFUSALS = 3;

/**
 * The result of a command on a select-all selection (issue 16 B), as one sentence for the toast:
 * how many of the selected orders changed, then each order left alone and why (the server's
 * words, which name the order). An answer without that detail (a refusal of the whole request)
 * keeps the server's message.
 */
export const selectAllResult = (action: BulkAction, answer: Envelope<BulkChangeAnswer | null>, selected: number): Envelope<BulkChangeAnswer | null> => {
  const changed = answer.data?.changed;
  if (changed === undefined) return answer;
  const refused = answer.data?.refused ?? [];
  const done = `${changed.length} of ${selected} ${selected === 1 ? "order" : "orders"} ${BULK_COMMANDS[action].done}.`;
  if (refused.length === 0) return { ...answer, message: done };
  const quoted = refused.slice(0, QUOTED_REFUSALS).map((r) => r.message);
  const rest = refused.slice(QUOTED_REFUSALS).map((r) => r.orderId);
  const more = rest.length === 0 ? "" : ` And ${rest.length} more: ${rest.join(", ")}.`;
  return { ...answer, message: `${done} ${refused.length === 1 ? "1 order was" : `${refused.length} orders were`} left alone: ${quoted.join(" ")}${more}` };
};

/** A pending action's confirmation: 000 §4's words, and for a select-all the count (issue 16 B). */
export const confirmationWords = (words: string | undefined, selectAll: number | undefined): string | undefined =>
  selectAll === undefined ? words : `${words ?? ""} This applies to ${selectAll} ${selectAll === 1 ? "order" : "orders"}.`.trim();
