import { migrateTables, type GlobalPosition, type SqlDriver } from "@etd/event-store";
import { capacitySql, openOrdersSql, QUEUE_TABLES } from "@etd/projections";

/*
 * Take next's claims (issue 27): which unassigned order each caller is about to be given, so that
 * members pressing it at the same moment each get a different order and none is skipped.
 *
 * A claim is a row keyed by the order id in the read database, inserted with `on conflict do
 * nothing`: of callers racing for one order exactly one row goes in, and the others move on to the
 * next candidate. Candidates are the waiting orders the queue read model shows, most urgent first
 * (URGENCY), without the claimed ones; since every caller claims the first free one, what is
 * claimed is always the front of that order. The table lives in the shared database, so it holds
 * across API processes on PostgreSQL as it does in one process on PGlite. The order decider stays
 * the final word: an order someone assigned by hand meanwhile is refused, its claim let go, and
 * the next one tried.
 *
 * A claim ends when the attempt failed, or when the queue read model has applied the assignment
 * it led to: the claim is marked done with the assignment's log position, and ends once the
 * queue's checkpoint has passed it, however long the projector takes and whatever happened to the
 * order since (assigned, or already sent back to its folder and free again). A claim never marked
 * done belongs to a process that died between the claim and the command: it ends after
 * CLAIM_LIFETIME.
 *
 * Capacity, where a member has one, is checked under a per-member lock, in the same transaction as
 * the claim: the member's open orders as the queue read model counts them, plus their claims it
 * does not show yet. So two presses by one member at once cannot both pass at capacity - 1, and a
 * refused call leaves nothing.
 */

const CLAIMS = "take_next_claims";

const CLAIMS_SQL = [
  `create table if not exists ${CLAIMS} (
    order_id text primary key,
    staff_id text not null,
    claimed_at timestamptz not null default now()
  )`,
  `create index if not exists ${CLAIMS}_staff on ${CLAIMS} (staff_id)`,
  // The assignment's log position, once the command succeeded (null while it is in flight).
  `alter table ${CLAIMS} add column if not exists done_tx numeric(20, 0), add column if not exists done_seq numeric(20, 0)`,
];

/** The projection whose checkpoint says a done claim's assignment is in the queue read model. */
const QUEUE_PROJECTION = "queue";

/** A done claim whose assignment the live queue build has applied. */
const APPLIED = `c.done_tx is not null and exists (select 1 from projection_builds b where b.name = '${QUEUE_PROJECTION}' and b.status = 'live'
  and (b.checkpoint_tx, b.checkpoint_seq) >= (c.done_tx, c.done_seq))`;

/** Longer than any command takes; a claim not done by then belongs to a process that died mid-call. */
const CLAIM_LIFETIME = "2 minutes";

/** Candidates read at a time: enough that racing callers rarely read twice, few enough to stay one index range. */
const CANDIDATES = 16;

/**
 * The class of the members' Take next locks: the two-key advisory locks (class, member) are a space
 * apart from the one-key locks the schema, the event store and the accounts take, so no member's
 * lock can ever be one of those.
 */
const MEMBER_LOCK_CLASS = 7340027;

const ORDERS = QUEUE_TABLES.orders;

/** An order waits to be taken: unassigned, in New or Priority (its processing date reached). */
const WAITING = `o.process_status in ('New', 'Priority') and o.assignee_id is null`;

/**
 * The one place the order of urgency is written: overdue first, then earliest due (both: due_at
 * ascending); Priority before Standard at the same due time; then the oldest paid.
 */
const URGENCY = `o.due_at asc nulls last, (o.processing_mode <> 'priority') asc, o.created_at asc, o.order_id asc`;

/** The order given to a caller, with what its reason is worded from. */
export interface ClaimedOrder {
  readonly orderId: string;
  readonly processingMode: string;
  /** ISO 8601; null when the queue shows no due time. */
  readonly dueAt: string | null;
}

export type ClaimOutcome =
  | { readonly claimed: ClaimedOrder }
  | { readonly atCapacity: { readonly held: number; readonly capacity: number } }
  | { readonly none: true };

/**
 * The database function that claims (below): one round trip a claim, whatever the race. Its name
 * carries a version, raised whenever its arguments or answer change: \`create or replace\` cannot
 * change a function's answer, and processes of two releases side by side each call their own.
 */
const CLAIM_FUNCTION = "take_next_claim_v2";

/**
 * One claim as one function call, so one round trip however many racing callers it meets (P15): it
 * lets go of the finished claims (those another caller is letting go of at the moment are left to
 * it: no one waits on them), checks the capacity, if the member has one, under their lock (the
 * call is one transaction, so the lock holds until the claim is in), then walks the candidates,
 * most urgent first: the first claim that goes in is the caller's. A candidate another caller
 * claims at that moment waits for that call to end (a few statements), then counts as claimed.
 */
const CLAIM_FUNCTION_SQL = `create or replace function ${CLAIM_FUNCTION}(p_staff text, p_today date, p_skip text[])
  returns table (outcome text, claimed_id text, claimed_mode text, claimed_due text, held integer, held_limit integer)
  language plpgsql as $claim$
declare
  v_capacity integer;
  v_held integer;
  v_read integer;
  v_candidate record;
begin
  delete from ${CLAIMS} where order_id in (
    select c.order_id from ${CLAIMS} c
     where (${APPLIED}) or (c.done_tx is null and c.claimed_at < now() - interval '${CLAIM_LIFETIME}')
     for update of c skip locked);
  -- Without a capacity nothing needs the member's lock.
  if ${capacitySql("p_staff")} is not null then
    perform pg_advisory_xact_lock(${MEMBER_LOCK_CLASS}, hashtext(p_staff));
    -- Read again under the lock: the capacity may have been set meanwhile.
    v_capacity := ${capacitySql("p_staff")};
    if v_capacity is not null then
      -- One statement, so one snapshot: the projector moves the queue's rows and its checkpoint
      -- together, so an order counts in exactly one of the two (read apart, in neither).
      v_held := (${openOrdersSql("p_staff")} + (select count(*) from ${CLAIMS} c where c.staff_id = p_staff and not (${APPLIED})))::integer;
      if v_held >= v_capacity then
        return query select 'atCapacity'::text, null::text, null::text, null::text, v_held, v_capacity;
        return;
      end if;
    end if;
  end if;
  loop
    v_read := 0;
    for v_candidate in
      select o.order_id, o.processing_mode, to_char(o.due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as due_at
        from ${ORDERS} o
       where ${WAITING} and o.processing_date <= p_today
         and not exists (select 1 from ${CLAIMS} c where c.order_id = o.order_id)
         and o.order_id <> all(p_skip)
       order by ${URGENCY}
       limit ${CANDIDATES}
    loop
      v_read := v_read + 1;
      insert into ${CLAIMS} (order_id, staff_id) values (v_candidate.order_id, p_staff) on conflict (order_id) do nothing;
      if found then
        return query select 'claimed'::text, v_candidate.order_id, v_candidate.processing_mode, v_candidate.due_at, null::integer, null::integer;
        return;
      end if;
    end loop;
    -- Every candidate was claimed by someone else first: read the next ones, unless there were no more.
    if v_read < ${CANDIDATES} then
      return query select 'none'::text, null::text, null::text, null::text, null::integer, null::integer;
      return;
    end if;
  end loop;
end
$claim$`;

const migrated = new WeakMap<SqlDriver, Promise<void>>();

/** The claims table and the claiming function, created once per database driver (every process runs the same statements). */
const ready = (db: SqlDriver): Promise<void> => {
  let done = migrated.get(db);
  if (!done) {
    done = migrateTables(db, [...CLAIMS_SQL, CLAIM_FUNCTION_SQL]);
    // A failed migration is tried again on the next call, not remembered.
    done.catch(() => migrated.delete(db));
    migrated.set(db, done);
  }
  return done;
};

/**
 * Claims the most urgent waiting order for `staffId`, unless they are at capacity. `skip`: orders
 * this call already tried and the decider refused (the read model may still show them waiting).
 */
export const claimNext = async (db: SqlDriver, staffId: string, today: string, skip: readonly string[] = []): Promise<ClaimOutcome> => {
  await ready(db);
  const [row] = await db.query(`select * from ${CLAIM_FUNCTION}($1, $2::date, $3::text[])`, [staffId, today, skip]);
  switch (row?.outcome) {
    case "claimed":
      return {
        claimed: {
          orderId: String(row.claimed_id),
          processingMode: String(row.claimed_mode),
          dueAt: typeof row.claimed_due === "string" ? row.claimed_due : null,
        },
      };
    case "atCapacity":
      return { atCapacity: { held: Number(row.held), capacity: Number(row.held_limit) } };
    case "none":
      return { none: true };
    default:
      throw new Error(`${CLAIM_FUNCTION} answered ${JSON.stringify(row)}`);
  }
};

/** The assignment is in the log at `position`: the claim ends once the queue has applied it. */
export const markClaimDone = async (db: SqlDriver, orderId: string, staffId: string, position: GlobalPosition): Promise<void> => {
  await db.query(`update ${CLAIMS} set done_tx = $3, done_seq = $4 where order_id = $1 and staff_id = $2`, [orderId, staffId, position.tx.toString(), position.seq.toString()]);
};

/** The attempt failed (the decider refused, or it threw): the order is free for the next caller. */
export const releaseClaim = async (db: SqlDriver, orderId: string, staffId: string): Promise<void> => {
  await db.query(`delete from ${CLAIMS} where order_id = $1 and staff_id = $2`, [orderId, staffId]);
};
