import * as Result from "effect/Result";
import { describe, expect, it } from "vitest";
import { CATALOGUE, decodeEvent, definitionOf, encodeEvent, type EventType } from "../src/index.ts";
import { SAMPLES } from "./samples.ts";

const stored = (type: EventType) => {
  const sample = SAMPLES[type];
  return { ...sample, schemaVersion: definitionOf(type)!.version };
};

describe("CARD-1 every event type survives the store: encode → JSON → decode", () => {
  it.each(CATALOGUE.map((d) => d.type))("%s", (type) => {
    const raw = stored(type);

    const decoded = decodeEvent(raw);
    if (Result.isFailure(decoded)) expect.fail(decoded.failure.message);
    expect(decoded.success).toEqual({ type, data: raw.data, metadata: raw.metadata });

    const encoded = encodeEvent(decoded.success);
    expect(encoded).toEqual(raw);
    // What the store gets is plain JSON: nothing lost or changed by serialising it.
    expect(JSON.parse(JSON.stringify(encoded))).toEqual(encoded);
  });

  it("has a sample for every type in the catalogue and nothing else", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(CATALOGUE.map((d) => d.type).sort());
  });
});
