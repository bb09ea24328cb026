/*
 * The operator's screen (issue 28, ADR 0039): what an Admin sees of the running system. Every
 * figure is computed with the functions `/metrics` uses (projectionLag, reactorLag, the store's
 * horizon), so the two agree. Times are ISO strings; positions are the log's `tx:seq` text.
 */

/** One build of a read model: the live one, and a newer one catching up beside it during a rebuild. */
export interface ReadModelBuild {
  readonly build: number;
  readonly version: number;
  readonly state: "live" | "building";
  readonly checkpoint: string;
  readonly eventsApplied: number;
  /** Events in the log it has not applied yet; null where the log is not in this database. */
  readonly eventsBehind: number | null;
  readonly secondsBehind: number;
  /** The process applying events to it, if any. */
  readonly leaseOwner: string | null;
  /** Applied of (applied + behind), 0 to 100: a rebuild's progress bar. */
  readonly percent: number;
  /** A building build's estimated seconds until it reaches the head, from its pace so far; null when unknown. */
  readonly secondsLeft: number | null;
}

export interface ReadModelStatus {
  readonly name: string;
  /** The live build's version, or null before any build went live. */
  readonly liveVersion: number | null;
  readonly live: ReadModelBuild | null;
  /** A rebuild (or a new version) catching up beside the live build. */
  readonly building: ReadModelBuild | null;
}

export interface ReactorStatus {
  readonly name: string;
  readonly checkpoint: string;
  readonly eventsBehind: number | null;
  readonly secondsBehind: number;
  /** Which process follows the log for it now, and since when; null while none holds the lease. */
  readonly lease: { readonly owner: string; readonly since: string | null } | null;
  readonly lastError: { readonly message: string; readonly at: string } | null;
  /** When it tries again after that error; null unless it is waiting out a back-off. */
  readonly retryAt: string | null;
}

export interface ChainStatus {
  /** Events the global chain covers (the sealer's count). */
  readonly sealed: number;
  /** Committed events past the chain's end, waiting for the sealer. */
  readonly unsealed: number;
  /** The log position the chain ends at. */
  readonly sealedTo: string;
}

export interface OperationsStatus {
  /** The log's head position. */
  readonly head: string;
  /** Age of the oldest open transaction holding back readers of the log (event_store_horizon_age_seconds). */
  readonly horizonAgeSeconds: number;
  readonly readModels: readonly ReadModelStatus[];
  readonly reactors: readonly ReactorStatus[];
  readonly chain: ChainStatus;
  /** When these figures were read. */
  readonly readAt: string;
}
