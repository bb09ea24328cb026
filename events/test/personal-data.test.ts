import * as Result from "effect/Result";
import { describe, expect, it } from "vitest";
import { decodeEvent, definitionOf, encodeEvent, ERASED, isErased } from "../src/index.ts";
import { SAMPLES, TRAVELLER } from "./samples.ts";

describe("personal data lives only in data.personal (DESIGN §3, crypto-shredding)", () => {
  const eventsWithPersonalData = Object.values(SAMPLES).filter((s) => "personal" in s.data);

  it("keeps the traveller's name, e-mail, passport and phone out of everything else", () => {
    for (const sample of Object.values(SAMPLES)) {
      const { personal: _personal, ...rest } = sample.data as Record<string, unknown>;
      const outside = JSON.stringify({ data: rest, metadata: sample.metadata });
      for (const value of Object.values(TRAVELLER)) {
        expect(outside, `${sample.type} outside data.personal`).not.toContain(value);
      }
    }
  });

  it("keeps a traveller's IP address out of the metadata of a public download", () => {
    expect(SAMPLES.DocumentDownloaded.metadata).not.toHaveProperty("requestIp");
    expect(SAMPLES.DocumentDownloaded.data.personal).toHaveProperty("ip");
  });

  it.each(eventsWithPersonalData.map((s) => [s.type, s] as const))(
    "%s still reads, and writes back, once its personal data is erased",
    (_type, sample) => {
      const raw = { ...sample, schemaVersion: definitionOf(sample.type)!.version, data: { ...sample.data, personal: ERASED } };
      const decoded = decodeEvent(raw);
      if (Result.isFailure(decoded)) expect.fail(decoded.failure.message);

      const personal = (decoded.success.data as { personal: object }).personal;
      expect(isErased(personal)).toBe(true);
      expect(encodeEvent(decoded.success)).toEqual(raw);
    },
  );

  it("does not mistake real personal data for the erased marker", () => {
    expect(isErased(SAMPLES.OrderPlaced.data.personal)).toBe(false);
  });
});
