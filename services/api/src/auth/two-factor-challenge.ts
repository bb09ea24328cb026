import { hkdfSync, randomUUID } from "node:crypto";
import * as Schema from "effect/Schema";
import type { Query, SqlDriver } from "@etd/event-store";
import { StaffId } from "@etd/events";
import { Counter } from "prom-client";
import { signToken, verifyToken } from "./signed-token.ts";

/*
 * The challenge between a right password and the second step (AUTH-3, issue 16): a signed JWT
 * (purpose "2fa", the member, their session generation, five minutes, an id). It is signed with
 * its own key, derived from JWT_SECRET, so that it can never pass for a session token nor a
 * session token for it. It carries no secret: it only says "this password was right, recently".
 *
 * What became of a challenge lives in PostgreSQL (`two_factor_challenges`), not in a process, so
 * that every API process behind a load balancer sees the same: at most five codes per challenge,
 * and once one signed in, the challenge is spent everywhere. The same rows bound a member's wrong
 * codes over all their challenges (ten in fifteen minutes): an attacker holding the password and
 * many addresses gets new challenges, and new throttle allowances, but not more wrong codes.
 * Wrong codes also count in the sign-in throttle (per e-mail and address, in each process).
 */

export const CHALLENGE_TTL_SECONDS = 300;
export const MAX_CODE_ATTEMPTS = 5;
/** Wrong codes a member may get over all their challenges in `WRONG_CODE_WINDOW_MS`. */
export const MAX_WRONG_CODES = 10;
export const WRONG_CODE_WINDOW_MS = 15 * 60_000;

/**
 * A row per challenge someone sent a code with. `attempts` counts every code, the right one too,
 * from before it is checked (so parallel guesses cannot pass the limit together); the wrong codes
 * of a challenge are its attempts, less the one that signed in if it is `spent`.
 */
export const CHALLENGES_SQL = /* sql */ `
create table if not exists two_factor_challenges (
  id text primary key,
  staff_id text not null,
  attempts integer not null,
  spent boolean not null default false,
  expires_at timestamptz not null,
  last_attempt_at timestamptz not null
);
create index if not exists two_factor_challenges_staff on two_factor_challenges (staff_id, last_attempt_at);
create index if not exists two_factor_challenges_expiry on two_factor_challenges (expires_at);
`;

const ChallengePayload = Schema.Struct({
  purpose: Schema.Literal("2fa"),
  staffId: StaffId,
  gen: Schema.Int,
  jti: Schema.String.check(Schema.isMinLength(1)),
  exp: Schema.Number,
});
const decodePayload = Schema.decodeUnknownOption(ChallengePayload);

export interface Challenge {
  readonly staffId: StaffId;
  /** The credential's session generation when the password was right: a change since spends the challenge. */
  readonly sessionGeneration: number;
  readonly id: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
}

/** Why a code sent with a challenge was refused, as `two_factor_codes_refused_total` labels it. */
export type CodeRefusal = "wrong_code" | "used_code" | "wrong_recovery_code" | "account_limit";
const CODE_REFUSALS: readonly CodeRefusal[] = ["wrong_code", "used_code", "wrong_recovery_code", "account_limit"];

export interface ChallengeIssuer {
  readonly ttlSeconds: number;
  issue(staffId: StaffId, sessionGeneration: number): string;
  /** The challenge a token stands for: undefined when forged, expired or malformed (spent is the tallies' to say). */
  verify(token: string): Challenge | undefined;
  /** Codes refused on this process's second steps, by reason, for /metrics. */
  readonly refusedCodes: RefusedCodes;
}

export interface RefusedCodes {
  inc(reason: CodeRefusal): void;
  /** Registered by each app that serves it (metrics.ts). */
  readonly counter: Counter<"reason">;
}

/** Every reason is shown from 0, so that a rate is defined from the start. */
const refusedCodesCounter = (): RefusedCodes => {
  const counter = new Counter({
    name: "two_factor_codes_refused_total",
    help: "Codes refused at the second step of sign-in: wrong, already used, a wrong recovery code, or past the member's limit of wrong codes.",
    labelNames: ["reason"],
    registers: [],
  });
  for (const reason of CODE_REFUSALS) counter.inc({ reason }, 0);
  return { counter, inc: (reason) => counter.inc({ reason }) };
};

export const createChallengeIssuer = (jwtSecret: string): ChallengeIssuer => {
  const key = Buffer.from(hkdfSync("sha256", jwtSecret, Buffer.alloc(0), "etd two-factor challenge v1", 32));
  return {
    ttlSeconds: CHALLENGE_TTL_SECONDS,
    issue: (staffId, sessionGeneration) => signToken({ purpose: "2fa", staffId, gen: sessionGeneration }, key, CHALLENGE_TTL_SECONDS, randomUUID()),
    verify: (token) => {
      const payload = verifyToken(token, key, decodePayload);
      return payload && { staffId: payload.staffId, sessionGeneration: payload.gen, id: payload.jti, expiresAt: payload.exp * 1000 };
    },
    refusedCodes: refusedCodesCounter(),
  };
};

export type AttemptOutcome =
  /** Counted: check the code now. */
  | { readonly kind: "counted" }
  /** The challenge has had its five codes, or signed in already. */
  | { readonly kind: "spent" }
  /** The member has had `MAX_WRONG_CODES` wrong codes in the window; this one is not counted. */
  | { readonly kind: "limited"; readonly retryAfterMs: number };

export interface ChallengeTallies {
  /** Counts one code sent with the challenge at `at` (the API's clock), unless refused. */
  attempt(challenge: Challenge, at: Date): Promise<AttemptOutcome>;
  /**
   * Marks the challenge spent, in the caller's transaction (the one that accepts the code): true
   * for exactly one of two requests that both had a right code.
   */
  claim(query: Query, challenge: Challenge): Promise<boolean>;
}

/** How long until fewer than `MAX_WRONG_CODES` of these (oldest first) are inside the window. */
const retryAfterMs = (rows: readonly { wrong: number; at: number }[], now: number): number | undefined => {
  let inWindow = rows.reduce((sum, row) => sum + row.wrong, 0);
  for (const row of rows) {
    if (inWindow < MAX_WRONG_CODES) return undefined;
    inWindow -= row.wrong;
    if (inWindow < MAX_WRONG_CODES) return Math.max(1, row.at + WRONG_CODE_WINDOW_MS - now);
  }
  return undefined;
};

export const createChallengeTallies = (db: Pick<SqlDriver, "transaction">): ChallengeTallies => ({
  attempt: (challenge, at) =>
    db.transaction(async (query): Promise<AttemptOutcome> => {
      // One member's attempts take turns (the row lock the code check takes too), so that the
      // count below includes every code counted before: parallel guesses on many challenges
      // cannot all pass a limit none of them has seen reached.
      await query("select 1 from staff_credentials where staff_id = $1 for update", [challenge.staffId]);
      const now = at.toISOString();
      // Rows no challenge can verify for any more and past the window: nothing reads them again.
      await query(
        `delete from two_factor_challenges
          where expires_at < now() - interval '1 hour' and last_attempt_at < $1::timestamptz - interval '15 minutes'`,
        [now],
      );
      const recent = await query(
        `select attempts - (case when spent then 1 else 0 end) as wrong, last_attempt_at from two_factor_challenges
          where staff_id = $1 and last_attempt_at > $2::timestamptz - interval '15 minutes'
          order by last_attempt_at, id`,
        [challenge.staffId, now],
      );
      const waitMs = retryAfterMs(
        recent.map((row) => ({ wrong: Number(row.wrong), at: new Date(row.last_attempt_at as string | Date).getTime() })),
        at.getTime(),
      );
      if (waitMs !== undefined) return { kind: "limited", retryAfterMs: waitMs };
      const counted = await query(
        `insert into two_factor_challenges as c (id, staff_id, attempts, expires_at, last_attempt_at)
           values ($1, $2, 1, $3::timestamptz, $4::timestamptz)
         on conflict (id) do update set attempts = c.attempts + 1, last_attempt_at = excluded.last_attempt_at
           where not c.spent and c.attempts < $5
         returning attempts`,
        [challenge.id, challenge.staffId, new Date(challenge.expiresAt).toISOString(), now, MAX_CODE_ATTEMPTS],
      );
      return counted.length === 1 ? { kind: "counted" } : { kind: "spent" };
    }),
  claim: async (query, challenge) =>
    (await query("update two_factor_challenges set spent = true where id = $1 and not spent returning 1 as claimed", [challenge.id])).length === 1,
});
