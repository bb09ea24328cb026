import { hkdfSync, randomUUID } from "node:crypto";
import { Schema } from "effect";
import jwt from "jsonwebtoken";
import { StaffId } from "@etd/events";

/*
 * The challenge between a right password and the second step (AUTH-3, issue 16): a signed JWT
 * (purpose "2fa", the member, their session generation, five minutes, an id). It is signed with
 * its own key, derived from JWT_SECRET, so that it can never pass for a session token nor a
 * session token for it. It carries no secret: it only says "this password was right, recently".
 *
 * Attempts are counted per challenge, in this process: at most five codes, after which, and after
 * the one that succeeded, the challenge is spent. Wrong codes also count in the sign-in throttle
 * (per e-mail and address), which outlives a challenge: a new sign-in does not buy new guesses.
 */

export const CHALLENGE_TTL_SECONDS = 300;
export const MAX_CODE_ATTEMPTS = 5;

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

export interface ChallengeIssuer {
  readonly ttlSeconds: number;
  issue(staffId: StaffId, sessionGeneration: number): string;
  /** The challenge a token stands for: undefined when forged, expired, malformed or spent. */
  verify(token: string): Challenge | undefined;
  /** Counts one attempt; false when the challenge has had all of its attempts (or was spent). */
  attempt(challenge: Challenge): boolean;
  /** The challenge signed the member in: it cannot be used again. */
  spend(challenge: Challenge): void;
}

interface Tally {
  attempts: number;
  spent: boolean;
  readonly expiresAt: number;
}

export const createChallengeIssuer = (jwtSecret: string, now: () => number = Date.now): ChallengeIssuer => {
  const key = Buffer.from(hkdfSync("sha256", jwtSecret, Buffer.alloc(0), "etd two-factor challenge v1", 32));
  // Only challenges someone tried; each is dropped once it has expired anyway.
  const tallies = new Map<string, Tally>();

  const prune = () => {
    const at = now();
    for (const [id, tally] of tallies) if (tally.expiresAt < at) tallies.delete(id);
  };
  const tallyOf = (challenge: Challenge): Tally => {
    let tally = tallies.get(challenge.id);
    if (!tally) {
      tally = { attempts: 0, spent: false, expiresAt: challenge.expiresAt };
      tallies.set(challenge.id, tally);
    }
    return tally;
  };

  return {
    ttlSeconds: CHALLENGE_TTL_SECONDS,
    issue: (staffId, sessionGeneration) =>
      jwt.sign({ purpose: "2fa", staffId, gen: sessionGeneration }, key, {
        algorithm: "HS256",
        expiresIn: CHALLENGE_TTL_SECONDS,
        jwtid: randomUUID(),
      }),
    verify: (token) => {
      let payload: unknown;
      try {
        payload = jwt.verify(token, key, { algorithms: ["HS256"] });
      } catch {
        return undefined;
      }
      const decoded = decodePayload(payload);
      if (decoded._tag === "None") return undefined;
      const { staffId, gen, jti, exp } = decoded.value;
      prune();
      if (tallies.get(jti)?.spent) return undefined;
      return { staffId, sessionGeneration: gen, id: jti, expiresAt: exp * 1000 };
    },
    attempt: (challenge) => {
      const tally = tallyOf(challenge);
      if (tally.spent || tally.attempts >= MAX_CODE_ATTEMPTS) return false;
      tally.attempts++;
      return true;
    },
    spend: (challenge) => {
      tallyOf(challenge).spent = true;
    },
  };
};
