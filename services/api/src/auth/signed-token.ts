import type { Option } from "effect/Option";
import jwt from "jsonwebtoken";

/*
 * The one way the API signs and checks a JWT: session tokens (auth/tokens.ts) and two-factor
 * challenges (auth/two-factor-challenge.ts). Only HS256 is accepted, so "alg: none" and any other
 * algorithm fail. Every token is signed with a lifetime, and each caller's payload schema requires
 * `exp`: jsonwebtoken checks `exp` only when present (issue 9 item 8).
 */

/** A token for `payload`, signed with `key`, valid for `ttlSeconds`; `jwtid` sets its `jti`. */
export const signToken = (payload: object, key: string | Buffer, ttlSeconds: number, jwtid?: string): string =>
  jwt.sign(payload, key, { algorithm: "HS256", expiresIn: ttlSeconds, ...(jwtid === undefined ? {} : { jwtid }) });

/** The payload of a token signed with `key`, as `decode` reads it: undefined when forged, expired or malformed. */
export const verifyToken = <A>(token: string, key: string | Buffer, decode: (payload: unknown) => Option<A>): A | undefined => {
  let payload: unknown;
  try {
    payload = jwt.verify(token, key, { algorithms: ["HS256"] });
  } catch {
    return undefined;
  }
  const decoded = decode(payload);
  return decoded._tag === "Some" ? decoded.value : undefined;
};
