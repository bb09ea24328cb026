import { randomUUID } from "node:crypto";
import * as Schema from "effect/Schema";
import { Role, StaffId } from "@etd/events";
import { signToken, verifyToken } from "./signed-token.ts";

/*
 * Session tokens (DESIGN §6, AUTH-4): a signed JWT whose payload holds `user: {id, name, type}`
 * as the existing client decodes it, plus `gen`, the credential's session generation, so a password
 * change ends older sessions. Only HS256 is accepted: "alg: none" and any other algorithm fail.
 * Every token must carry `exp` (issue 9 item 8): jsonwebtoken checks `exp` only when present, so a
 * correctly signed token without it would otherwise open a session that never ends.
 * `sid` names the session (issue 9 item 7), so that signing out can revoke exactly that one
 * (auth/sessions.ts); a token without it cannot be revoked and is refused.
 */

export const SessionUser = Schema.Struct({ id: StaffId, name: Schema.String, type: Role });
export type SessionUser = typeof SessionUser.Type;

const TokenPayload = Schema.Struct({ user: SessionUser, gen: Schema.Int, exp: Schema.Number, sid: Schema.String.check(Schema.isMinLength(1)) });
const decodePayload = Schema.decodeUnknownOption(TokenPayload);

/** What a valid token stands for. */
export interface TokenSession {
  readonly user: SessionUser;
  readonly sessionGeneration: number;
  /** The session's own id (`sid`): what sign-out revokes. */
  readonly sessionId: string;
  /** When the token stops being valid (its `exp`), in milliseconds since the epoch. */
  readonly expiresAt: number;
}

export interface TokenIssuer {
  /** How long a new session lasts: the token's lifetime and the session cookie's max-age. */
  readonly ttlSeconds: number;
  issue(user: SessionUser, sessionGeneration: number): string;
  /** The session a token stands for, or undefined when it is missing, forged, expired or malformed. */
  verify(token: string): TokenSession | undefined;
}

export const createTokenIssuer = (secret: string, ttlSeconds: number): TokenIssuer => ({
  ttlSeconds,
  issue: (user, sessionGeneration) => signToken({ user, gen: sessionGeneration, sid: randomUUID() }, secret, ttlSeconds),
  verify: (token) => {
    const payload = verifyToken(token, secret, decodePayload);
    return payload && { user: payload.user, sessionGeneration: payload.gen, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
  },
});

/** AUTH-5: the token comes with no prefix, or as `Bearer <token>`. */
export const tokenFromHeader = (header: string | undefined): string | undefined => {
  const value = header?.trim();
  if (!value) return undefined;
  // A prefix test and a slice: a pattern around the token backtracked over long runs of blanks.
  return /^bearer\s/i.test(value) ? value.slice("Bearer".length).trim() : value;
};
