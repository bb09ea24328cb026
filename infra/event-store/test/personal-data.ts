import { randomBytes, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createSqlEventStore,
  createSqlKeyStore,
  encryptingEventStore,
  openSealedSqlEventStore,
  PersonalDataForgotten,
  PersonalDataUnreadable,
  type EncryptingEventStore,
  type EventStore,
  type GlobalPosition,
  type KeyStore,
  type NewEvent,
  type RecordedEvent,
  type SqlDriver,
  WrongExpectedVersion,
} from "../src/index.ts";

/**
 * Crypto-shredding of personal data (DESIGN §3), run on every SQL engine: an event's
 * `data.personal` is stored encrypted under its stream's key and read back in plain form, and
 * destroying the key erases it from every event while the history stays readable.
 */
export interface PersonalDataHarness {
  /** A driver on the suite's database: the same database on every call. */
  openDriver(): Promise<SqlDriver>;
  teardown?(): Promise<void>;
}

const newStream = () => `order-${randomUUID()}`;

/** Personal data no other test uses, so a search of the whole database finds only this test's rows. */
const aTraveller = () => {
  const tag = randomBytes(4).toString("hex").toUpperCase();
  return {
    passportNumber: `P${tag}Q7`,
    firstName: `Annelise${tag}`,
    lastName: `Vandermeer${tag}`,
    address: { line1: `12 Kestrel Lane ${tag}`, city: "Leeds", country: "GB" },
  };
};
type Traveller = ReturnType<typeof aTraveller>;
const needles = (t: Traveller) => [t.passportNumber, t.firstName, t.lastName, t.address.line1];

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
  eventId: randomUUID(),
  type,
  schemaVersion: 1,
  data,
  metadata: { actor: { id: "s1", name: "Maria", role: "Admin" }, correlationId: randomUUID() },
});

const placed = (personal: unknown) => event("OrderPlaced", { orderId: "100234", country: "IN", personal });

/** Every row of every table in `public`, as text, that contains any of the needles. */
const searchEveryTable = async (driver: SqlDriver, find: readonly string[]) => {
  const tables = (
    await driver.query(`select distinct table_name::text as name from information_schema.columns where table_schema = 'public'`)
  ).map((row) => row.name as string);
  const hits: { table: string; row: string }[] = [];
  for (const table of tables) {
    const rows = await driver.query(`select t::text as row from public."${table.replaceAll('"', '""')}" as t`);
    for (const { row } of rows) {
      if (find.some((needle) => String(row).includes(needle))) hits.push({ table, row: String(row) });
    }
  }
  return { tables, hits };
};

const rawData = async (driver: SqlDriver, streamId: string) =>
  (
    await driver.query("select event_id::text as id, data::text as text, data from es_events where stream_id = $1 order by stream_position", [
      streamId,
    ])
  ).map((row) => ({ id: row.id as string, text: row.text as string, data: row.data as Record<string, unknown> }));

const setSealed = async (driver: SqlDriver, eventId: string, enc: string) => {
  await driver.query("update es_events set data = jsonb_set(data, '{personal,enc}', to_jsonb($2::text)) where event_id = $1::uuid", [
    eventId,
    enc,
  ]);
};

/** What a subscription from `after` delivers for one stream, once `count` of its events arrived. */
const subscribed = async (store: EventStore, after: GlobalPosition, streamId: string, count: number) => {
  const seen: RecordedEvent[] = [];
  const subscription = store.subscribe({
    after,
    handle: async (events) => {
      seen.push(...events.filter((e) => e.streamId === streamId));
    },
  });
  const deadline = Date.now() + 10_000;
  while (seen.length < count && Date.now() < deadline) await sleep(5);
  await subscription.stop();
  return seen;
};

/** The error a subscription from `after` stops with. */
const subscriptionError = async (store: EventStore, after: GlobalPosition) => {
  const errors: unknown[] = [];
  const subscription = store.subscribe({ after, handle: async () => {}, onError: (error) => errors.push(error) });
  await Promise.race([subscription.done, sleep(10_000)]);
  await subscription.stop();
  return errors[0];
};

const readAllOf = async (store: EventStore, after: GlobalPosition, streamId: string) =>
  (await store.readAll({ after, limit: 1000 })).filter((e) => e.streamId === streamId);

export const personalDataSuite = (name: string, harness: () => PersonalDataHarness) => {
  describe(`personal data, crypto-shredded: ${name}`, () => {
    let h: PersonalDataHarness;
    let driver: SqlDriver;
    let keys: KeyStore;
    let store: EncryptingEventStore;

    beforeAll(async () => {
      h = harness();
      driver = await h.openDriver();
      keys = await createSqlKeyStore(driver);
      store = encryptingEventStore(await createSqlEventStore(driver, { pollIntervalMs: 100 }), keys);
    }, 60_000);

    afterAll(async () => {
      await store?.close();
      await driver?.close();
      await h?.teardown?.();
    }, 60_000);

    it("stores only ciphertext of data.personal: the raw row holds no passport number or name", async () => {
      const stream = newStream();
      const traveller = aTraveller();
      const original = placed(traveller);
      const asGiven = structuredClone(original);
      await store.append(stream, [original], { expectedVersion: "no_stream" });

      const [row] = await rawData(driver, stream);
      for (const needle of needles(traveller)) expect(row!.text).not.toContain(needle);
      expect(row!.data.personal).toEqual({ enc: expect.stringMatching(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/) });
      // Only the personal part is sealed; the rest of the event stays queryable.
      expect(row!.data).toMatchObject({ orderId: "100234", country: "IN" });
      expect(original).toEqual(asGiven);
    });

    it("reads data.personal back in plain form through readStream, readAll and subscribe", async () => {
      const stream = newStream();
      const traveller = aTraveller();
      const head = await store.headPosition();
      const first = placed(traveller);
      const second = event("CustomerDetailsChanged", { personal: { ...traveller, phone: "+44 113 496 0000" } });
      await store.append(stream, [first, second], { expectedVersion: "no_stream" });

      const expected = [
        { orderId: "100234", country: "IN", personal: traveller },
        { personal: { ...traveller, phone: "+44 113 496 0000" } },
      ];
      expect((await store.readStream(stream)).map((e) => e.data)).toEqual(expected);
      expect((await readAllOf(store, head, stream)).map((e) => e.data)).toEqual(expected);
      expect((await subscribed(store, head, stream, 2)).map((e) => e.data)).toEqual(expected);
      expect((await store.readStream(stream))[1]!.metadata).toEqual(second.metadata);
    });

    it("passes events without personal data, and the erased marker, through untouched", async () => {
      const stream = newStream();
      const plain = event("OrderAssigned", { by: "s1", note: "no personal field" });
      const marker = event("OrderPlaced", { orderId: "100235", personal: { erased: true } });
      await store.append(stream, [plain, marker], { expectedVersion: "no_stream" });

      expect((await rawData(driver, stream)).map((r) => r.data)).toEqual([plain.data, marker.data]);
      expect((await store.readStream(stream)).map((e) => e.data)).toEqual([plain.data, marker.data]);
      expect(await keys.existingKey(stream)).toBeUndefined(); // no personal data, no key
    });

    it("after forget, readStream, readAll and subscribe yield { erased: true }, and no table holds the data or its key", async () => {
      const stream = newStream();
      const traveller = aTraveller();
      const head = await store.headPosition();
      await store.append(stream, [placed(traveller)], { expectedVersion: "no_stream" });
      await store.append(stream, [event("OrderAssigned", { by: "s1" })], { expectedVersion: 1n });
      const key = (await keys.existingKey(stream))!;
      expect(key).toHaveLength(32);
      // The search sees what is there: before forget, it finds the key.
      expect((await searchEveryTable(driver, [key.toString("hex")])).hits.map((hit) => hit.table)).toEqual(["es_stream_keys"]);

      await store.forget(stream);

      const erased = [
        { orderId: "100234", country: "IN", personal: { erased: true } },
        { by: "s1" },
      ];
      expect((await store.readStream(stream)).map((e) => e.data)).toEqual(erased);
      expect((await readAllOf(store, head, stream)).map((e) => e.data)).toEqual(erased);
      expect((await subscribed(store, head, stream, 2)).map((e) => e.data)).toEqual(erased);
      // The history itself is intact.
      expect((await store.readStream(stream)).map((e) => [e.type, e.streamPosition])).toEqual([
        ["OrderPlaced", 1n],
        ["OrderAssigned", 2n],
      ]);

      const { tables, hits } = await searchEveryTable(driver, [...needles(traveller), key.toString("hex")]);
      expect(tables).toEqual(expect.arrayContaining(["es_events", "es_stream_keys"]));
      expect(hits).toEqual([]);
      expect(await keys.existingKey(stream)).toBeUndefined();
    });

    it("forget first, then append the permanent delete: the stream takes events without personal data, refuses new personal data", async () => {
      const stream = newStream();
      await store.append(stream, [placed(aTraveller())], { expectedVersion: "no_stream" });
      await store.forget(stream);
      await store.forget(stream); // idempotent: a retried permanent delete forgets again

      await store.append(stream, [event("OrderPermanentlyDeleted", { by: "s1" })], { expectedVersion: 1n });
      await expect(store.append(stream, [placed(aTraveller())], { expectedVersion: 2n })).rejects.toBeInstanceOf(
        PersonalDataForgotten,
      );
      await expect(keys.keyFor(stream)).rejects.toMatchObject({ _tag: "PersonalDataForgotten", streamId: stream });
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(["OrderPlaced", "OrderPermanentlyDeleted"]);
    });

    it("forgets a stream that never had personal data, for good", async () => {
      const stream = newStream();
      await store.forget(stream);
      await expect(store.append(stream, [placed(aTraveller())], { expectedVersion: "no_stream" })).rejects.toBeInstanceOf(
        PersonalDataForgotten,
      );
      expect(await store.readStream(stream)).toEqual([]);
    });

    it("fails loudly on tampered ciphertext, in every read path, instead of reading it as erased", async () => {
      const stream = newStream();
      const head = await store.headPosition();
      const original = placed(aTraveller());
      await store.append(stream, [original], { expectedVersion: "no_stream" });
      const [row] = await rawData(driver, stream);
      const [version, iv, tag, ciphertext] = (row!.data.personal as { enc: string }).enc.split(".");
      const flipped = (ciphertext!.startsWith("A") ? "B" : "A") + ciphertext!.slice(1);
      await setSealed(driver, original.eventId, [version, iv, tag, flipped].join("."));

      const read = store.readStream(stream);
      await expect(read).rejects.toBeInstanceOf(PersonalDataUnreadable);
      await expect(read).rejects.toMatchObject({ streamId: stream, eventId: original.eventId });
      await expect(store.readAll({ after: head, limit: 1000 })).rejects.toBeInstanceOf(PersonalDataUnreadable);
      expect(await subscriptionError(store, head)).toBeInstanceOf(PersonalDataUnreadable);

      await setSealed(driver, original.eventId, "v1.not-even.close");
      await expect(store.readStream(stream)).rejects.toBeInstanceOf(PersonalDataUnreadable);
    });

    it("binds each ciphertext to its event: copied into another event, of the same stream or another, it does not open", async () => {
      const stream = newStream();
      const other = newStream();
      const a = placed(aTraveller());
      const b = event("CustomerDetailsChanged", { personal: aTraveller() });
      const c = placed(aTraveller());
      await store.append(stream, [a, b], { expectedVersion: "no_stream" });
      await store.append(other, [c], { expectedVersion: "no_stream" });
      const [sealedA] = await rawData(driver, stream);
      const enc = (sealedA!.data.personal as { enc: string }).enc;

      await setSealed(driver, b.eventId, enc); // same stream, same key: only the AAD tells them apart
      await expect(store.readStream(stream)).rejects.toMatchObject({ _tag: "PersonalDataUnreadable", eventId: b.eventId });
      await setSealed(driver, c.eventId, enc);
      await expect(store.readStream(other)).rejects.toMatchObject({ _tag: "PersonalDataUnreadable", eventId: c.eventId });
    });

    it("gives concurrent first keyFor calls for a new stream the same key, whichever process makes them", async () => {
      // Separate key stores share nothing in memory, like separate processes.
      const processes = await Promise.all(Array.from({ length: 8 }, () => createSqlKeyStore(driver)));
      const stream = newStream();
      const got = await Promise.all(processes.map((p) => p.keyFor(stream)));
      for (const key of got) expect(key.equals(got[0]!)).toBe(true);
      expect(got[0]).toHaveLength(32);
      expect((await keys.keyFor(newStream())).equals(got[0]!)).toBe(false);
    });

    it("treats a retried encrypted append as a duplicate although its ciphertext differs", async () => {
      const stream = newStream();
      const traveller = aTraveller();
      const batch = [placed(traveller), event("OrderAssigned", { by: "s1" })];
      const first = await store.append(stream, batch, { expectedVersion: "no_stream" });
      const before = await rawData(driver, stream);
      const retry = await store.append(stream, batch, { expectedVersion: "no_stream" });

      expect(retry).toEqual({ ...first, duplicate: true });
      expect(await rawData(driver, stream)).toEqual(before);
      expect((await store.readStream(stream)).map((e) => e.data.personal)).toEqual([traveller, undefined]);
    });

    /*
     * Issue 28 (P10): the sealed store writes a new stream's key in the statement that appends its
     * first events, so the two commit together (one commit, not two) or not at all.
     */
    describe("a new stream's key, written with its first events (openSealedSqlEventStore)", () => {
      /** The driver, counting the statements the store sends through it. */
      const counted = () => {
        const sent: string[] = [];
        const counting: SqlDriver = {
          query: (text, params, queryName) => (sent.push(text), driver.query(text, params, queryName)),
          transaction: (work) => driver.transaction(work),
          onNotification: (channel, handle) => driver.onNotification(channel, handle),
          close: async () => undefined,
        };
        return { counting, sent };
      };
      const keyRow = async (streamId: string) =>
        (await driver.query("select encode(key, 'hex') as key from es_stream_keys where stream_id = $1", [streamId]))[0]?.key as string | undefined;

      it("stores the events and the key in one statement, and another process reads them", async () => {
        const { counting, sent } = counted();
        const sealed = await openSealedSqlEventStore(counting);
        const stream = newStream();
        const traveller = aTraveller();
        sent.length = 0;
        await sealed.append(stream, [placed(traveller)], { expectedVersion: "no_stream" });

        expect(sent).toHaveLength(1);
        expect(await keyRow(stream)).toMatch(/^[0-9a-f]{64}$/);
        const [row] = await rawData(driver, stream);
        for (const needle of needles(traveller)) expect(row!.text).not.toContain(needle);
        // `store` has its own key cache: like another process, it reads the key from the table.
        expect((await store.readStream(stream))[0]!.data.personal).toEqual(traveller);
        // The key is cached once committed: the next append to the stream is one statement too.
        sent.length = 0;
        await sealed.append(stream, [placed(aTraveller())], { expectedVersion: 1n });
        expect(sent).toHaveLength(1);
      });

      it("seals with the key a stream already has when its first events come (a first append that failed)", async () => {
        const sealed = await openSealedSqlEventStore(driver);
        const stream = newStream();
        const existing = await createSqlKeyStore(driver).then((elsewhere) => elsewhere.keyFor(stream));
        const traveller = aTraveller();
        await sealed.append(stream, [placed(traveller)], { expectedVersion: "no_stream" });

        expect(await keyRow(stream)).toBe(existing.toString("hex"));
        expect((await store.readStream(stream))[0]!.data.personal).toEqual(traveller);
      });

      it("refuses new personal data for a forgotten stream and stores nothing", async () => {
        const sealed = await openSealedSqlEventStore(driver);
        const stream = newStream();
        await store.forget(stream);
        await expect(sealed.append(stream, [placed(aTraveller())], { expectedVersion: "no_stream" })).rejects.toBeInstanceOf(PersonalDataForgotten);
        expect(await rawData(driver, stream)).toEqual([]);
        expect(await keyRow(stream)).toBe("");
      });

      it("lets one of two processes' first appends to a new stream win; the other is refused and the key is the winner's", async () => {
        const [one, two] = await Promise.all([openSealedSqlEventStore(driver), openSealedSqlEventStore(driver)]);
        const stream = newStream();
        const travellers = [aTraveller(), aTraveller()] as const;
        const outcomes = await Promise.allSettled([
          one.append(stream, [placed(travellers[0])], { expectedVersion: "no_stream" }),
          two.append(stream, [placed(travellers[1])], { expectedVersion: "no_stream" }),
        ]);

        expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
        const refused = outcomes.find((outcome) => outcome.status === "rejected");
        expect(refused?.reason).toBeInstanceOf(WrongExpectedVersion);
        const winner = travellers[outcomes.findIndex((outcome) => outcome.status === "fulfilled")];
        for (const reader of [one, two, store]) expect((await reader.readStream(stream)).map((e) => e.data.personal)).toEqual([winner]);
      });

      it("refuses a first append to a stream that exists, and leaves its key as it was", async () => {
        const sealed = await openSealedSqlEventStore(driver);
        const stream = newStream();
        const traveller = aTraveller();
        await store.append(stream, [placed(traveller)], { expectedVersion: "no_stream" });
        const key = await keyRow(stream);
        await expect(sealed.append(stream, [placed(aTraveller())], { expectedVersion: "no_stream" })).rejects.toBeInstanceOf(WrongExpectedVersion);
        expect(await keyRow(stream)).toBe(key);
        expect((await sealed.readStream(stream)).map((e) => e.data.personal)).toEqual([traveller]);
      });
    });

    it("in another process, a destroyed key stops working once its cached copy expires (the documented caveat)", async () => {
      const elsewhere = encryptingEventStore(await createSqlEventStore(driver), await createSqlKeyStore(driver, { cacheTtlMs: 60_000 }));
      const stream = newStream();
      const traveller = aTraveller();
      await store.append(stream, [placed(traveller)], { expectedVersion: "no_stream" });
      expect((await elsewhere.readStream(stream))[0]!.data.personal).toEqual(traveller); // now cached there

      await store.forget(stream);
      expect((await store.readStream(stream))[0]!.data.personal).toEqual({ erased: true });
      expect((await elsewhere.readStream(stream))[0]!.data.personal).toEqual(traveller); // the window
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_001 });
      try {
        expect((await elsewhere.readStream(stream))[0]!.data.personal).toEqual({ erased: true });
      } finally {
        vi.useRealTimers();
        await elsewhere.close();
      }
    });
  });
};
