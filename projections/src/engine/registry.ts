import { migrateTables, type GlobalPosition, type Query, type SqlDriver } from "@etd/event-store";

/*
 * Where the engine keeps each projection's builds. A build is one run of one projection version
 * from the start of the log into its own tables (`<base>_v<version>_b<build>`). At most one build
 * per projection is live (its views point at it); a newer build catches up beside it and takes
 * over when it reaches the head, so a rebuild never takes a read model away.
 *
 * The checkpoint is `(tx, seq)`, the log position of the last event the build applied, moved in
 * the same transaction as the read-model changes. The lease names the one process allowed to
 * apply events to a build; it expires if that process dies.
 */

export const REGISTRY_SQL = /* sql */ `
create table if not exists projection_builds (
  name text not null,
  build integer not null,
  version integer not null,
  status text not null check (status in ('building', 'live', 'retired')),
  checkpoint_tx numeric(20, 0) not null default 0,
  checkpoint_seq numeric(20, 0) not null default 0,
  events_applied bigint not null default 0,
  last_event_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz not null default now(),
  promoted_at timestamptz,
  primary key (name, build)
);
create unique index if not exists projection_builds_one_live on projection_builds (name) where status = 'live';
`;

/** Any constant shared by every process: serialises registry migrations and build creation. */
const REGISTRY_LOCK = 7_340_002;

export type BuildStatus = "building" | "live" | "retired";

export interface Build {
  readonly name: string;
  readonly build: number;
  readonly version: number;
  readonly status: BuildStatus;
  readonly checkpoint: GlobalPosition;
  readonly eventsApplied: number;
  readonly lastEventAt: Date | undefined;
  readonly leaseOwner: string | undefined;
  /** When the build was started: a rebuild's pace is counted from it. */
  readonly startedAt: Date;
}

const toBuild = (row: Record<string, unknown>): Build => ({
  name: row.name as string,
  build: Number(row.build),
  version: Number(row.version),
  status: row.status as BuildStatus,
  checkpoint: { tx: BigInt(row.checkpoint_tx as string), seq: BigInt(row.checkpoint_seq as string) },
  eventsApplied: Number(row.events_applied),
  lastEventAt: row.last_event_at ? new Date(row.last_event_at as string) : undefined,
  leaseOwner: (row.lease_owner as string | null) ?? undefined,
  startedAt: new Date(row.created_at as string),
});

export const tableOf = (build: Pick<Build, "version" | "build">, base: string): string => `${base}_v${build.version}_b${build.build}`;

export const migrateRegistry = (driver: SqlDriver): Promise<void> => migrateTables(driver, REGISTRY_SQL);

export const listBuilds = async (query: Query, name?: string): Promise<Build[]> =>
  (
    await query(
      name === undefined
        ? "select * from projection_builds where status <> 'retired' order by name, build"
        : "select * from projection_builds where name = $1 and status <> 'retired' order by build",
      name === undefined ? [] : [name],
    )
  ).map(toBuild);

export const readBuild = async (query: Query, name: string, build: number, lock = false): Promise<Build | undefined> => {
  const rows = await query(`select * from projection_builds where name = $1 and build = $2${lock ? " for update" : ""}`, [name, build]);
  return rows[0] ? toBuild(rows[0]) : undefined;
};

/**
 * Starts a new build of `version` and creates its tables, unless one is already building for
 * that version (then that one is answered, so an interrupted rebuild resumes). Serialised across
 * processes.
 */
export const startBuild = async (
  driver: SqlDriver,
  name: string,
  version: number,
  createTables: (query: Query, build: Pick<Build, "version" | "build">) => Promise<void>,
): Promise<Build> =>
  driver.transaction(async (query) => {
    await query(`select pg_advisory_xact_lock(${REGISTRY_LOCK})`);
    const building = (await query("select * from projection_builds where name = $1 and version = $2 and status = 'building'", [name, version]))[0];
    if (building) return toBuild(building);
    const next = Number((await query("select coalesce(max(build), 0) + 1 as next from projection_builds where name = $1", [name]))[0]!.next);
    await createTables(query, { version, build: next });
    const rows = await query("insert into projection_builds (name, build, version, status) values ($1, $2, $3, 'building') returning *", [name, next, version]);
    return toBuild(rows[0]!);
  });

/** Takes or renews the build's lease; false when another live process holds it. */
export const acquireLease = async (query: Query, name: string, build: number, owner: string, leaseMs: number): Promise<boolean> => {
  const rows = await query(
    `update projection_builds
        set lease_owner = $3, lease_until = now() + make_interval(secs => $4::double precision / 1000)
      where name = $1 and build = $2 and status <> 'retired'
        and (lease_owner is null or lease_owner = $3 or lease_until < now())
      returning build`,
    [name, build, owner, leaseMs],
  );
  return rows.length > 0;
};

export const releaseLease = async (query: Query, name: string, build: number, owner: string): Promise<void> => {
  await query("update projection_builds set lease_owner = null, lease_until = null where name = $1 and build = $2 and lease_owner = $3", [
    name,
    build,
    owner,
  ]);
};

/**
 * Makes the build live: its views replace the old build's, in one transaction, so readers see
 * either the old read model or the new one, never neither.
 */
export const promote = async (query: Query, build: Build, tables: readonly string[]): Promise<void> => {
  await query(`select pg_advisory_xact_lock(${REGISTRY_LOCK})`);
  const replaced = (await query("select * from projection_builds where name = $1 and status = 'live'", [build.name])).map(toBuild);
  await query("update projection_builds set status = 'retired', lease_owner = null where name = $1 and status = 'live'", [build.name]);
  await query("update projection_builds set status = 'live', promoted_at = now() where name = $1 and build = $2", [build.name, build.build]);
  for (const base of tables) {
    await query(`drop view if exists ${base}`);
    await query(`create view ${base} as select * from ${tableOf(build, base)}`);
  }
  // Nothing reads the replaced build's tables any more; a process still writing to them fails
  // its next batch and finds its build retired.
  for (const old of replaced) for (const base of tables) await query(`drop table if exists ${tableOf(old, base)}`);
};
