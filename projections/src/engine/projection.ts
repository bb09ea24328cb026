import type { GlobalPosition, Query } from "@etd/event-store";
import type { AnyEvent } from "@etd/events";

/*
 * A read model, as the engine runs it (DESIGN §5). A projection owns a few tables; the engine
 * gives it the log's events in order, in batches, each batch inside one transaction that also
 * moves its checkpoint, so every event is applied exactly once.
 *
 * Versions: the tables a version writes are named `<base>_v<version>` (ask `table(base)`), so a
 * new version builds beside the live one. Queries always read `<base>`, a view the engine points
 * at the live version's table once that version has caught up.
 */

/** One event of the log, decoded (upcast, personal data decrypted or `{erased: true}`). */
export interface ProjectedEvent {
  readonly event: AnyEvent;
  readonly eventId: string;
  readonly streamId: string;
  readonly streamPosition: bigint;
  readonly position: GlobalPosition;
  readonly recordedAt: Date;
}

/** What a batch changed in a read model (issue 28, P17): an empty list when nothing any reader shows. */
export type Changed = readonly string[];

/** The physical name of one of the projection's tables, in the version being written. */
export type TableName = (base: string) => string;

export interface Projection {
  /** Stable, lowercase, e.g. "queue". */
  readonly name: string;
  /** Raise it whenever tables or apply change meaning: the new version rebuilds from the log. */
  readonly version: number;
  /** Base names of the tables it owns; each is read through a view of the same name. */
  readonly tables: readonly string[];
  /** Creates its tables and indexes (through `table`). Runs once per version, in a transaction. */
  readonly migrate: (query: Query, table: TableName) => Promise<void>;
  /**
   * Applies one batch (up to a few thousand events) inside the engine's transaction. Must be
   * deterministic and read nothing but its own tables and the events; should touch each row once
   * per batch (load the affected rows, fold the batch in memory, write them back in one statement)
   * so that a rebuild of a million events stays close to the speed of reading the log.
   *
   * Answers what the batch changed, when the projection can tell, as the names the live feed's
   * readers know it by (contract LiveChange.changed), so a screen refetches only if it shows one
   * of them; nothing when anything may have changed.
   */
  readonly apply: (events: readonly ProjectedEvent[], query: Query, table: TableName) => Promise<Changed | void>;
}

export const physicalTable = (projection: Pick<Projection, "version">, base: string): string =>
  `${base}_v${projection.version}`;
