import { createHmac } from "node:crypto";
import { migrateTables, type SqlDriver } from "@etd/event-store";
import { createThrottle, DEFAULT_LIMITS, subjectCountCap, systemClock, type Clock, type FailureStore, type Throttle, type ThrottleLimits } from "./throttle.ts";

/*
 * The throttle's failures in PostgreSQL, shared by every API process (issue 28, ADR 0040): with
 * counts in each process, two APIs behind the proxy would give an attacker twice the guesses.
 * One row per failure, so the window slides and a success takes back exactly its own pair's
 * rows, as in memory (throttle.ts holds the arithmetic; this module only keeps and reads rows).
 *
 * - The subject is stored as the SHA-256 of its normalised form: a fixed width whatever was typed,
 *   and no e-mail address at rest. The address is its throttle key (an IPv4 address or an IPv6 /64).
 * - A check and the failure it counts are one call of a function (one round trip) that holds an
 *   advisory lock on (throttle, address): two processes cannot both let the fifth guess of one
 *   address through. Different addresses do not wait for each other (a hash collision only makes
 *   two wait in turn).
 * - A refused guess inserts nothing. Reads stop at what a check needs (the newest `perSubjectIp`
 *   of the pair, `perIp` of the address, the subject's count up to where the delay stops growing).
 * - Rows outside the window are deleted when the throttle starts, then at the first guess a
 *   window after the last sweep or after `SWEEP_EVERY` failures recorded by this process, whichever
 *   comes first: an address (personal data) stays about two windows at most while guesses come.
 *   Inside the window an address holds at most `perIp` rows (it is locked out after them), so a
 *   burst of distinct subjects grows the table by at most `perIp` per address and window, and the
 *   sweep takes them away afterwards.
 */

/**
 * The class of the throttle's two-key advisory locks (class, hash of throttle and address), a
 * space apart from the one-key locks and from the members' Take next class (7340027).
 */
const LOCK_CLASS = 7_340_031;

const THROTTLE_SQL = [
  /* sql */ `
create table if not exists throttle_failures (
  throttle text not null,
  subject text not null,
  client text not null,
  at bigint not null
)`,
  `create index if not exists throttle_failures_client on throttle_failures (throttle, client, at)`,
  `create index if not exists throttle_failures_subject on throttle_failures (throttle, subject, at)`,
  /*
   * The check and the count in one call, so one round trip (a check alone: p_record false): the lock first, then the reads, each
   * statement of a volatile function seeing what committed before it (so, once the lock is held,
   * every failure counted under it). The lock ends with the caller's statement. The name carries a
   * version: create or replace cannot change its answer, and two releases side by side each call
   * their own.
   */
  /* sql */ `
create or replace function throttle_count_v1(
  p_throttle text, p_subject text, p_client text, p_now bigint, p_since bigint,
  p_pair_limit bigint, p_client_limit bigint, p_subject_cap bigint, p_record boolean,
  out pair_times float8[], out client_times float8[], out subject_failures integer, out recorded boolean
) language plpgsql as $$
begin
  perform pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(p_throttle || ' ' || p_client));
  pair_times := array(select f.at::float8 from throttle_failures f
    where f.throttle = p_throttle and f.client = p_client and f.subject = p_subject and f.at > p_since order by f.at desc limit p_pair_limit);
  client_times := array(select f.at::float8 from throttle_failures f
    where f.throttle = p_throttle and f.client = p_client and f.at > p_since order by f.at desc limit p_client_limit);
  subject_failures := (select count(*)::integer from (select from throttle_failures f
    where f.throttle = p_throttle and f.subject = p_subject and f.at > p_since limit p_subject_cap) recent);
  recorded := p_record and cardinality(pair_times) < p_pair_limit and cardinality(client_times) < p_client_limit;
  if recorded then
    insert into throttle_failures (throttle, subject, client, at) values (p_throttle, p_subject, p_client, p_now);
  end if;
end $$`,
];

/** Delete the rows outside the window at the latest after this many failures recorded by this process. */
const SWEEP_EVERY = 1_000;

/** Which throttle, and the key its subjects are kept under. */
export interface SharedThrottleName {
  /** Keeps throttles with different limits apart in the one table (the sign-in's, the public lookup's). */
  readonly name: string;
  /**
   * The subjects (e-mails, order ids) are kept as their HMAC under this key, not a bare hash: a
   * short list of staff e-mails or 6-digit order ids is reversed from a bare hash by trying them.
   * Every API process derives the same key from the session secret they share.
   */
  readonly subjectKey: Uint8Array;
}

const failuresIn = (db: SqlDriver, { name: throttle, subjectKey }: SharedThrottleName, limits: ThrottleLimits, startedAt: number): FailureStore => {
  const digest = (subject: string) => createHmac("sha256", subjectKey).update(subject).digest("hex");
  let recordedSinceSweep = 0;
  let lastSweep = startedAt;
  const cap = subjectCountCap(limits);
  const countIf = async (subject: string, client: string, now: number, since: number, record: boolean) => {
    const [row] = await db.query(
      `select * from throttle_count_v1($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [throttle, digest(subject), client, now, since, limits.perSubjectIp, limits.perIp, cap, record],
      "throttle-count",
    );
    const before = { pair: row!.pair_times as number[], client: row!.client_times as number[], subject: row!.subject_failures as number };
    return { before, recorded: row!.recorded as boolean };
  };
  return {
    counts: async (subject, client, since) => (await countIf(subject, client, 0, since, false)).before,
    subjectFailures: async (subject, since) => {
      const [row] = await db.query(
        `select count(*)::int as n from (select from throttle_failures where throttle = $1 and subject = $2 and at > $3 limit $4) recent`,
        [throttle, digest(subject), since, cap],
      );
      return row!.n as number;
    },
    countIfOpen: async (subject, client, now, since) => {
      const counted = await countIf(subject, client, now, since, true);
      if (counted.recorded) recordedSinceSweep++;
      if (recordedSinceSweep >= SWEEP_EVERY || lastSweep <= since) {
        recordedSinceSweep = 0;
        lastSweep = now;
        await sweep(db, throttle, since);
      }
      return counted;
    },
    forget: async (subject, client) => {
      if (client === undefined) await db.query(`delete from throttle_failures where throttle = $1 and subject = $2`, [throttle, digest(subject)]);
      else await db.query(`delete from throttle_failures where throttle = $1 and subject = $2 and client = $3`, [throttle, digest(subject), client]);
    },
  };
};

const sweep = (db: SqlDriver, throttle: string, since: number) => db.query(`delete from throttle_failures where throttle = $1 and at <= $2`, [throttle, since]);

/** A throttle whose counts every process on this database shares. */
export const createSharedThrottle = async (
  db: SqlDriver,
  throttle: SharedThrottleName,
  overrides: Partial<ThrottleLimits> = {},
  clock: Clock = systemClock,
): Promise<Throttle> => {
  await migrateTables(db, THROTTLE_SQL);
  const now = clock.now();
  await sweep(db, throttle.name, now - { ...DEFAULT_LIMITS, ...overrides }.windowMs);
  return createThrottle(overrides, clock, (limits) => failuresIn(db, throttle, limits, now));
};
