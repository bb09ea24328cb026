import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";

/*
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238; AUTH-3, issue 16, ADR 0024):
 * SHA-1, 6 digits, 30-second steps, a code accepted one step either side of now for clocks that
 * drift. The secret is stored only as AES-256-GCM ciphertext under a key derived from JWT_SECRET
 * (HKDF-SHA256), so a copy of the database alone does not give away anyone's second factor.
 * Recovery codes are stored as HMAC-SHA256 under another key derived from JWT_SECRET: 50 random
 * bits are far beyond guessing online at the throttle's pace, but not beyond a machine trying them
 * offline against a copy of the database, which a plain hash would allow. Keyed, a lookup stays
 * one hash and a copy alone tells nothing.
 */

export const TOTP_ISSUER = "ETD Back Office";
const ALGORITHM = "SHA1";
const DIGITS = 6;
const PERIOD_SECONDS = 30;
/** Steps either side of now a code may come from. */
const WINDOW = 1;
/** 160 bits, the size RFC 4226 recommends for an HMAC-SHA1 key. */
const SECRET_BYTES = 20;

export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_LENGTH = 10;
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** What a code proves about the stored secret. */
export type CodeCheck =
  | { readonly kind: "accepted"; readonly step: number }
  | { readonly kind: "reused" }
  | { readonly kind: "invalid" };

/** Seals and opens the stored secrets, and hashes recovery codes; keys derived from JWT_SECRET. */
export interface SecretBox {
  seal(plain: string): string;
  /** The plain secret, or undefined when the ciphertext was not sealed with this key or was altered. */
  open(sealed: string): string | undefined;
  /** What is stored of a recovery code; typed with or without the dash, spaces or capitals, it hashes the same. */
  recoveryCodeHash(code: string): string;
}

const SEALED_PREFIX = "v1.";

/** A recovery code as it is hashed: without dashes or spaces, in lower case. */
const normaliseRecoveryCode = (code: string): string => code.replace(/[\s-]+/g, "").toLowerCase();

export const createSecretBox = (jwtSecret: string): SecretBox => {
  const key = Buffer.from(hkdfSync("sha256", jwtSecret, Buffer.alloc(0), "etd two-factor secret v1", 32));
  // Its own key (another HKDF info): the cipher's key is never used as a MAC key too.
  const recoveryKey = Buffer.from(hkdfSync("sha256", jwtSecret, Buffer.alloc(0), "etd two-factor recovery codes v1", 32));
  return {
    seal: (plain) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const encrypted = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString("base64url");
    },
    open: (sealed) => {
      if (!sealed.startsWith(SEALED_PREFIX)) return undefined;
      const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64url");
      if (bytes.length < 12 + 16) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
      } catch {
        return undefined;
      }
    },
    recoveryCodeHash: (code) => createHmac("sha256", recoveryKey).update(normaliseRecoveryCode(code)).digest("hex"),
  };
};

/** A new secret, base32 as authenticator apps take it for manual entry. */
export const newTotpSecret = (): string => new Secret({ size: SECRET_BYTES }).base32;

const totpOf = (secret: string, account = "") =>
  new TOTP({ issuer: TOTP_ISSUER, label: account, algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** The `otpauth://totp/…` address the QR code holds: issuer "ETD Back Office", account the member's e-mail. */
export const otpauthUrl = (secret: string, email: string): string => totpOf(secret, email).toString();

/** The QR code as an image URL the page can show without fetching anything. */
export const qrCodeDataUrl = (text: string): string =>
  `data:image/svg+xml;base64,${Buffer.from(renderSVG(text, { ecc: "M", border: 4 })).toString("base64")}`;

/** The code an authenticator shows at `timestampMs` (tests, and nothing else, need it). */
export const codeAt = (secret: string, timestampMs: number): string => totpOf(secret).generate({ timestamp: timestampMs });

/**
 * Checks a typed code against the secret at `nowMs`. A matching code whose step is not later
 * than `lastStep` was already used (or an older one replayed): refused, so that a code seen over
 * someone's shoulder is worth nothing once it has been typed. The caller must still record the
 * step with `acceptStep`, which settles two requests racing with the same code.
 */
export const checkCode = (secret: string, code: string, lastStep: number | null, nowMs: number): CodeCheck => {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return { kind: "invalid" };
  const delta = totpOf(secret).validate({ token, timestamp: nowMs, window: WINDOW });
  if (delta === null) return { kind: "invalid" };
  const step = TOTP.counter({ period: PERIOD_SECONDS, timestamp: nowMs }) + delta;
  return lastStep !== null && step <= lastStep ? { kind: "reused" } : { kind: "accepted", step };
};

/** Ten new recovery codes, `xxxxx-xxxxx` of lower-case base32 (50 random bits each). */
export const newRecoveryCodes = (): string[] =>
  Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    // 256 is a multiple of 32: the low five bits of a random byte are uniform.
    const chars = [...randomBytes(RECOVERY_CODE_LENGTH)].map((byte) => BASE32[byte & 31]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
