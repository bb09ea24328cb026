import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, seal, unseal, UnsealError } from "../src/personal-data/cipher.ts";

const key = randomBytes(32);
const here = { streamId: "order-100234", eventId: "0b0f5e0c-8d3a-4d7e-9a51-1f7c2f3b9a10" };
const personal = { passportNumber: "P1234567Q", firstName: "Annelise", address: { city: "Leeds" } };

const replacePart = (enc: string, index: number, replace: (part: string) => string) =>
  enc
    .split(".")
    .map((part, i) => (i === index ? replace(part) : part))
    .join(".");
const flipFirst = (part: string) => (part.startsWith("A") ? "B" : "A") + part.slice(1);

describe("sealing data.personal (AES-256-GCM, stream id + event id as AAD)", () => {
  it("seals to { enc: 'v1.<iv>.<tag>.<ciphertext>' } in base64url, and opens back to the same object", () => {
    const sealed = seal(key, here, personal);
    expect(sealed).toEqual({ enc: expect.stringMatching(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/) });
    expect(sealed.enc).not.toContain("P1234567Q");
    expect(isSealed(sealed)).toBe(true);
    expect(unseal(key, here, sealed)).toEqual(personal);
  });

  it("uses a fresh IV every time, so equal data never seals to equal text", () => {
    expect(seal(key, here, personal).enc).not.toBe(seal(key, here, personal).enc);
  });

  it("refuses to open under another event id, another stream id or another key", () => {
    const sealed = seal(key, here, personal);
    expect(() => unseal(key, { ...here, eventId: "5d7c1f0e-0000-4000-8000-000000000000" }, sealed)).toThrow(UnsealError);
    expect(() => unseal(key, { ...here, streamId: "order-100235" }, sealed)).toThrow(/authentication failed/);
    expect(() => unseal(randomBytes(32), here, sealed)).toThrow(UnsealError);
  });

  it("refuses an altered IV, tag or ciphertext, and anything that is not a v1 sealed value", () => {
    const { enc } = seal(key, here, personal);
    for (const index of [1, 2, 3]) {
      expect(() => unseal(key, here, { enc: replacePart(enc, index, flipFirst) })).toThrow(UnsealError);
    }
    expect(() => unseal(key, here, { enc: replacePart(enc, 2, (tag) => tag.slice(0, 8)) })).toThrow(/tag has 6 bytes/);
    expect(() => unseal(key, here, { enc: replacePart(enc, 0, () => "v2") })).toThrow(/unknown sealing version/);
    expect(() => unseal(key, here, { enc: replacePart(enc, 3, (c) => `${c}+/`) })).toThrow(/not base64url/);
    expect(() => unseal(key, here, { enc: "v1.abc" })).toThrow(/four parts/);
  });

  it("recognises only the sealed shape, not plain personal data or the erased marker", () => {
    expect(isSealed(personal)).toBe(false);
    expect(isSealed({ erased: true })).toBe(false);
    expect(isSealed({ enc: 1 })).toBe(false);
    expect(isSealed(null)).toBe(false);
  });
});
