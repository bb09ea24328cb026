import type { AnyEvent } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";

/*
 * What the per-table folds of the order detail models share (order-details-fold.ts composes them).
 * Each fold owns one table: it sees every event of a batch in log order and answers, at the end,
 * the rows to write back. A fold reads another table's state only through what that fold offers
 * (the current order row, a known name), at the point of the batch where it stands.
 */

export interface TableFold<Row> {
  readonly step: (projected: ProjectedEvent) => void;
  /** The rows to write back for the whole batch. */
  readonly changes: () => readonly Row[];
}

/** An actor as the histories and the timeline name them: a staff member's or a system's name; "traveller" for the customer, who is never named. */
export const actorName = (event: AnyEvent): string => (event.metadata.actor.kind === "customer" ? "traveller" : event.metadata.actor.name);
