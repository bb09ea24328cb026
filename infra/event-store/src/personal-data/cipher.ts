import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from "node:crypto";
import type { JsonObject } from "../port.ts";

/**
 * The sealed form of an event's `data.personal`: `{ enc: "v1.<iv>.<tag>.<ciphertext>" }`, parts
 * in base64url. AES-256-GCM with a random 12-byte IV; the stream id and event id are the
 * additional authenticated data, so a ciphertext copied into another event (even of the same
 * stream, under the same key) fails authentication instead of passing for that event's data.
 */
export interface Sealed {
  readonly enc: string;
}

/** Where a sealed value belongs; bound into the ciphertext. */
export interface SealContext {
  readonly streamId: string;
  readonly eventId: string;
}

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

// A JSON array cannot be confused across fields, whatever characters a stream id holds.
const aad = ({ streamId, eventId }: SealContext) => Buffer.from(JSON.stringify([VERSION, streamId, eventId]));

export const isSealed = (value: unknown): value is Sealed =>
  typeof value === "object" &&
  value !== null &&
  Object.keys(value).length === 1 &&
  typeof (value as { enc?: unknown }).enc === "string";

/**
 * Node imports a raw key on every cipher it makes from a Buffer (most of the cost of opening one
 * small value); a KeyObject made once per cached key buffer is imported once.
 */
const keyObjects = new WeakMap<Buffer, KeyObject>();
const keyObjectOf = (key: Buffer): KeyObject => {
  let object = keyObjects.get(key);
  if (!object) keyObjects.set(key, (object = createSecretKey(key)));
  return object;
};

export const seal = (key: Buffer, context: SealContext, personal: JsonObject): Sealed => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, keyObjectOf(key), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(context));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(personal), "utf8"), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"));
  return { enc: [VERSION, ...parts].join(".") };
};

/** Why a sealed value could not be opened; the decorator turns it into `PersonalDataUnreadable`. */
export class UnsealError extends Error {}

const decodePart = (part: string, what: string): Buffer => {
  if (!BASE64URL.test(part)) throw new UnsealError(`the ${what} is not base64url`);
  return Buffer.from(part, "base64url");
};

/** The plain object back; throws `UnsealError` when the value was altered, moved, or sealed under another key. */
export const unseal = (key: Buffer, context: SealContext, sealed: Sealed): JsonObject => {
  const parts = sealed.enc.split(".");
  if (parts.length !== 4) throw new UnsealError("the sealed value does not have four parts");
  const [version, ivText, tagText, ciphertextText] = parts as [string, string, string, string];
  if (version !== VERSION) throw new UnsealError(`unknown sealing version ${JSON.stringify(version)}`);
  const iv = decodePart(ivText, "IV");
  const tag = decodePart(tagText, "tag");
  const ciphertext = decodePart(ciphertextText, "ciphertext");
  if (iv.length !== IV_BYTES) throw new UnsealError(`the IV has ${iv.length} bytes, not ${IV_BYTES}`);
  if (tag.length !== TAG_BYTES) throw new UnsealError(`the tag has ${tag.length} bytes, not ${TAG_BYTES}`);

  const decipher = createDecipheriv(ALGORITHM, keyObjectOf(key), iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad(context));
  decipher.setAuthTag(tag);
  let plain: string;
  try {
    plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch (cause) {
    throw new UnsealError("authentication failed: the value was altered, moved from another event, or sealed under another key", {
      cause,
    });
  }
  const personal: unknown = JSON.parse(plain);
  if (typeof personal !== "object" || personal === null || Array.isArray(personal)) {
    throw new UnsealError("the sealed value is not an object");
  }
  return personal as JsonObject;
};
