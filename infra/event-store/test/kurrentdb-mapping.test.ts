import { describe, expect, it } from "vitest";
import {
  actualVersion,
  expectedRevision,
  isSystemRecord,
  readPositionAfter,
  revisionOfVersion,
  sameEventId,
  SCHEMA_VERSION_KEY,
  toGlobalPosition,
  toJsonObject,
  toKurrentPosition,
  toStreamState,
  unwrapMetadata,
  versionOfRevision,
  wrapMetadata,
} from "../src/kurrentdb/mapping.ts";
import { createKurrentDbEventStore } from "../src/index.ts";
import { START } from "../src/port.ts";

describe("KurrentDB mapping", () => {
  it("numbers stream events from 1 where KurrentDB counts revisions from 0", () => {
    expect(versionOfRevision(0n)).toBe(1n);
    expect(versionOfRevision(41n)).toBe(42n);
    expect(revisionOfVersion(1n)).toBe(0n);
    expect(revisionOfVersion(versionOfRevision(7n))).toBe(7n);
  });

  it("turns the expected version into the stream state an append sends", () => {
    expect(toStreamState(0n)).toBe("no_stream");
    expect(toStreamState("no_stream")).toBe("no_stream");
    expect(toStreamState(1n)).toBe(0n);
    expect(toStreamState(5n)).toBe(4n);
    expect(toStreamState("stream_exists")).toBe("stream_exists");
    expect(toStreamState("any")).toBe("any");
    expect(() => toStreamState(-1n)).toThrow(RangeError);
  });

  it("names the revision a retried append would have written after, when the writer named one", () => {
    expect(expectedRevision(0n)).toBe(-1n);
    expect(expectedRevision("no_stream")).toBe(-1n);
    expect(expectedRevision(3n)).toBe(2n);
    expect(expectedRevision("any")).toBeUndefined();
    expect(expectedRevision("stream_exists")).toBeUndefined();
  });

  it("reports a conflict's actual version: 0 for no stream, else revision + 1", () => {
    expect(actualVersion("no_stream")).toBe(0n);
    expect(actualVersion(-1n)).toBe(0n);
    expect(actualVersion(0n)).toBe(1n);
    expect(actualVersion(9n)).toBe(10n);
  });

  it("maps log positions both ways, and starts reads at the start for START", () => {
    const position = { commit: 123_456n, prepare: 123_400n };
    expect(toGlobalPosition(position)).toEqual({ tx: 123_456n, seq: 123_400n });
    expect(toKurrentPosition(toGlobalPosition(position))).toEqual(position);
    expect(readPositionAfter(START)).toBe("start");
    expect(readPositionAfter({ tx: 10n, seq: 10n })).toEqual({ commit: 10n, prepare: 10n });
  });

  it("keeps the schema version in metadata and gives the caller back exactly its metadata", () => {
    const metadata = { actor: { id: "s1", name: "Maria", role: "Team" }, correlationId: "c-1" };
    const stored = wrapMetadata(metadata, 3);
    expect(stored).toEqual({ ...metadata, [SCHEMA_VERSION_KEY]: 3 });
    expect(metadata).not.toHaveProperty(SCHEMA_VERSION_KEY);
    // What the server returns is the JSON of what was stored.
    const back = unwrapMetadata(JSON.parse(JSON.stringify(stored)));
    expect(back).toEqual({ metadata, schemaVersion: 3 });
    expect(back.metadata).not.toHaveProperty(SCHEMA_VERSION_KEY);
  });

  it("refuses caller metadata that uses the reserved key", () => {
    expect(() => wrapMetadata({ [SCHEMA_VERSION_KEY]: 2 }, 1)).toThrow(/reserves/);
  });

  it("reads events written by others as schema version 1", () => {
    expect(unwrapMetadata(undefined)).toEqual({ metadata: {}, schemaVersion: 1 });
    expect(unwrapMetadata({ a: 1 })).toEqual({ metadata: { a: 1 }, schemaVersion: 1 });
    expect(unwrapMetadata({ a: 1, [SCHEMA_VERSION_KEY]: "2" })).toEqual({ metadata: { a: 1 }, schemaVersion: 1 });
    expect(unwrapMetadata(new Uint8Array([1, 2]))).toEqual({ metadata: {}, schemaVersion: 1 });
    expect(unwrapMetadata(["x"])).toEqual({ metadata: {}, schemaVersion: 1 });
  });

  it("gives data as a JSON object, wrapping what someone else wrote in another shape", () => {
    expect(toJsonObject({ orderId: "100234" })).toEqual({ orderId: "100234" });
    expect(toJsonObject([1, 2])).toEqual({ $value: [1, 2] });
    expect(toJsonObject("text")).toEqual({ $value: "text" });
    expect(toJsonObject(new Uint8Array([104, 105]))).toEqual({ $binary: "aGk=" });
  });

  it("recognises KurrentDB's own records by their `$` stream or type", () => {
    expect(isSystemRecord("order-1", "OrderPlaced")).toBe(false);
    expect(isSystemRecord("$$order-1", "$metadata")).toBe(true);
    expect(isSystemRecord("$stats-127.0.0.1:2113", "Stats")).toBe(true);
    expect(isSystemRecord("$ce-order", "$>")).toBe(true);
  });

  it("compares event ids without regard to case", () => {
    expect(sameEventId("0B6E3F0C-9D4A-4B7E-8D59-1B2C3D4E5F60", "0b6e3f0c-9d4a-4b7e-8d59-1b2c3d4e5f60")).toBe(true);
    expect(sameEventId("0b6e3f0c-9d4a-4b7e-8d59-1b2c3d4e5f60", "1b6e3f0c-9d4a-4b7e-8d59-1b2c3d4e5f60")).toBe(false);
  });
});

describe("KurrentDB adapter without a server", () => {
  it("loads the client and fails to open, saying where it looked", async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const opening = createKurrentDbEventStore({ connectionString: "kurrentdb://127.0.0.1:1?tls=false" });
    await expect(opening).rejects.toThrow(/KurrentDB at kurrentdb:\/\/127\.0\.0\.1:1\?tls=false cannot be read/);
  }, 15_000);
});
