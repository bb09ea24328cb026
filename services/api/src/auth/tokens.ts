import { Schema } from "effect";
import jwt from "jsonwebtoken";
import { Role, StaffId } from "@etd/events";

/*
 * Session tokens (DESIGN §6, AUTH-4): a signed JWT whose payload holds `user: {id, name, type}`
 * as the existing client decodes it, plus `gen`, the credential's session generation, so a password
 * change ends older sessions. Only HS256 is accepted: "alg: none" and any other algorithm fail.
 */

export const SessionUser = Schema.Struct({ id: StaffId, name: Schema.String, type: Role });
export type SessionUser = typeof SessionUser.Type;

const TokenPayload = Schema.Struct({ user: SessionUser, gen: Schema.Int });
const decodePayload = Schema.decodeUnknownOption(TokenPayload);

export interface TokenIssuer {
  issue(user: SessionUser, sessionGeneration: number): string;
  /** The session a token stands for, or undefined when it is missing, forged, expired or malformed. */
  verify(token: string): { user: SessionUser; sessionGeneration: number } | undefined;
}

export const createTokenIssuer = (secret: string, ttlSeconds: number): TokenIssuer => ({
  issue: (user, sessionGeneration) =>
    jwt.sign({ user, gen: sessionGeneration }, secret, { algorithm: "HS256", expiresIn: ttlSeconds }),
  verify: (token) => {
    let payload: unknown;
    try {
      payload = jwt.verify(token, secret, { algorithms: ["HS256"] });
    } catch {
      return undefined;
    }
    const decoded = decodePayload(payload);
    return decoded._tag === "Some" ? { user: decoded.value.user, sessionGeneration: decoded.value.gen } : undefined;
  },
});

/** AUTH-5: the token comes with no prefix, or as `Bearer <token>`. */
export const tokenFromHeader = (header: string | undefined): string | undefined => {
  const value = header?.trim();
  if (!value) return undefined;
  const bearer = /^Bearer\s+(.+)$/i.exec(value);
  return bearer ? bearer[1] : value;
};
