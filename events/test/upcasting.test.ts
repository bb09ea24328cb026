import * as Result from "effect/Result";
import { describe, expect, it } from "vitest";
import { decodeEvent, encodeEvent, isPermanentlyDeleted, missingUpcasters, remarkText, TRIP_TEXT_KEYS_V1, withPersonalErased, type AnyEvent } from "../src/index.ts";
import { customerMetadata, intakeMetadata, reactorMetadata, SAMPLES, staffMetadata } from "./samples.ts";

/** A remark as the first writers stored it: the spec's add-new-remark payload. */
const remarkV1 = (flags: Record<string, string>) => ({
  type: "RemarkAdded",
  schemaVersion: 1,
  data: {
    orderId: "100234",
    remark: "  Refund approved by supervisor ",
    remarkerName: "Maria Santos",
    ...flags,
  },
  metadata: staffMetadata,
});

describe("ORDER-10 RemarkAdded stored as version 1 reads as the current version", () => {
  it("turns 'Y' into true and 'N', empty or absent flags into false", () => {
    const result = decodeEvent(
      remarkV1({ whatsapp: "N", telephone: "Y", statusRefund: "Y", voided: "", chargeBack: "N" }),
    );
    if (Result.isFailure(result)) expect.fail(result.failure.message);

    expect(result.success).toEqual({
      type: "RemarkAdded",
      data: {
        orderId: "100234",
        remarkerName: "Maria Santos",
        personal: { remark: "Refund approved by supervisor" },
        whatsapp: false,
        telephone: true,
        statusRefund: true,
        voided: false,
        chargeBack: false,
        reportError: false,
      },
      metadata: staffMetadata,
    });
  });

  it("refuses a version-1 flag that was never 'Y' or 'N', naming the version and the field", () => {
    const result = decodeEvent(remarkV1({ whatsapp: "yes" }));
    if (Result.isSuccess(result)) expect.fail("decoded an invalid version-1 remark");

    expect(result.failure.reason).toBe("InvalidEvent");
    expect(result.failure.message).toContain("RemarkAdded (stored as version 1)");
    expect(result.failure.message).toContain('["whatsapp"]');
  });

  it("still checks the upcast data against the later versions' schemas", () => {
    const result = decodeEvent({ ...remarkV1({}), data: { ...remarkV1({}).data, remark: "   " } });
    if (Result.isSuccess(result)) expect.fail("decoded a blank remark");

    expect(result.failure.reason).toBe("InvalidEvent");
    expect(result.failure.message).toContain('["remark"]');
  });

  it("does not read a version-2 remark as version 1, and refuses 'Y' strings there", () => {
    const result = decodeEvent({ ...remarkV1({ whatsapp: "Y" }), schemaVersion: 2 });
    if (Result.isSuccess(result)) expect.fail("decoded 'Y' as a version-2 flag");

    expect(result.failure.message).toContain("RemarkAdded (stored as version 2)");
    expect(result.failure.message).toContain('["whatsapp"]');
  });
});

describe("security review: RemarkAdded stored as version 2 (text in the clear) reads as version 3", () => {
  const remarkV2 = {
    type: "RemarkAdded",
    schemaVersion: 2,
    data: {
      orderId: "100234",
      remark: "Customer Liza phone +63 9171234567 said passport P1234567",
      remarkerName: "Maria Santos",
      whatsapp: true,
      telephone: false,
      statusRefund: false,
      voided: false,
      chargeBack: true,
      reportError: false,
    },
    metadata: staffMetadata,
  };

  it("moves the text into the personal part and keeps the flags", () => {
    const result = decodeEvent(remarkV2);
    if (Result.isFailure(result)) expect.fail(result.failure.message);
    const { remark, ...rest } = remarkV2.data;
    expect(result.success).toEqual({ type: "RemarkAdded", data: { ...rest, personal: { remark } }, metadata: staffMetadata });
  });

  it("writes new remarks with the text only inside personal, which the store seals", () => {
    const result = decodeEvent(remarkV2);
    if (Result.isFailure(result)) expect.fail(result.failure.message);
    const stored = encodeEvent(result.success);
    expect(stored.schemaVersion).toBe(3);
    const { personal, ...outside } = stored.data as Record<string, unknown>;
    expect(JSON.stringify(outside)).not.toContain("P1234567");
    expect(personal).toEqual({ remark: remarkV2.data.remark });
  });

  it("reads a version-3 remark whose key was destroyed as erased, and readers show \"\"", () => {
    const { remark: _remark, ...rest } = remarkV2.data;
    const result = decodeEvent({ ...remarkV2, schemaVersion: 3, data: { ...rest, personal: { erased: true } } });
    if (Result.isFailure(result) || result.success.type !== "RemarkAdded") return expect.fail("did not decode");
    expect(remarkText(result.success.data)).toBe("");
  });

  it("erases the text of an old remark once the stream holds a permanent delete", () => {
    const result = decodeEvent(remarkV2);
    if (Result.isFailure(result)) expect.fail(result.failure.message);
    const erased = withPersonalErased(result.success);
    expect(JSON.stringify(erased)).not.toContain("P1234567");
    expect(isPermanentlyDeleted([result.success])).toBe(false);
    expect(isPermanentlyDeleted([result.success, { type: "OrderPermanentlyDeleted" }])).toBe(true);
  });
});

/** The stored event decoded as the current version, or the test fails with the decoder's message. */
const decoded = (raw: { type: string; schemaVersion: number; data: unknown; metadata: unknown }): AnyEvent => {
  const result = decodeEvent(raw);
  if (Result.isFailure(result)) return expect.fail(result.failure.message);
  return result.success;
};

/** Everything of an event but its personal part, as text: where nothing typed may remain. */
const outsidePersonal = (event: AnyEvent) => {
  const { personal: _personal, ...rest } = event.data as Record<string, unknown>;
  return JSON.stringify({ ...event, data: rest });
};

describe("issue 25: events stored with text in the clear read with it in the personal part", () => {
  // The version-1 forms: the current samples with the moved values put back where they were.
  const { application, personal } = SAMPLES.OrderPlaced.data;
  const trip = Object.fromEntries(Object.entries(personal).filter(([key]) => (TRIP_TEXT_KEYS_V1 as readonly string[]).includes(key)));
  const person = Object.fromEntries(Object.entries(personal).filter(([key]) => !(TRIP_TEXT_KEYS_V1 as readonly string[]).includes(key)));
  const placedV1 = { type: "OrderPlaced", schemaVersion: 1, data: { ...SAMPLES.OrderPlaced.data, application: { ...application, ...trip }, personal: person }, metadata: intakeMetadata };
  const uploadedV1 = {
    type: "DocumentUploaded",
    schemaVersion: 1,
    data: { orderId: "100234", fileName: "passport_Liza.pdf", storedPath: "docs/100234/passport_Liza.pdf", contentType: "application/pdf", sizeBytes: 1000, uploadedBy: { id: "7f3c2a", name: "Maria Santos" }, provider: "AWS", personal: { to: "liza@example.com" } },
    metadata: staffMetadata,
  };
  const downloadedV1 = {
    type: "DocumentDownloaded",
    schemaVersion: 1,
    data: { orderId: "100234", fileName: "passport_Liza.pdf", browser: "Chrome-122", os: "Android 14", device: "Liza's Pixel", deviceType: "Mobile", timezone: "EST", personal: { ip: "198.51.100.7" } },
    metadata: customerMetadata,
  };
  const transactionV1 = { type: "TransactionDetailsRecorded", schemaVersion: 1, data: { orderId: "100234", transactionId: "ch_LIZA", merchantName: "Liza Travel" }, metadata: staffMetadata };
  const packV1 = { type: "DefencePackGenerated", schemaVersion: 1, data: { orderId: "100234", packType: 1, fileName: "defence-pack-1.pdf", storedPath: "docs/100234/defence-pack-1.pdf" }, metadata: staffMetadata };
  const failedV1 = { type: "MailFailed", schemaVersion: 1, data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", attempt: 1, reason: "550 mailbox of Liza is full" }, metadata: reactorMetadata };

  it("OrderPlaced v1: the trip as typed joins the person, the rest of the application stays", () => {
    const event = decoded(placedV1);
    expect(event.data).toEqual(SAMPLES.OrderPlaced.data);
    expect(outsidePersonal(event)).not.toContain("PR 103");
  });

  it("OrderPlaced v1 of an erased order: the trip as typed is dropped with the person", () => {
    const event = decoded({ ...placedV1, data: { ...placedV1.data, personal: { erased: true } } });
    expect(event.data).toEqual({ ...SAMPLES.OrderPlaced.data, personal: { erased: true } });
    expect(JSON.stringify(event)).not.toContain("PR 103");
  });

  it.each([
    ["DocumentUploaded", uploadedV1, { to: "liza@example.com", fileName: "passport_Liza.pdf", storedPath: "docs/100234/passport_Liza.pdf" }],
    ["DocumentDownloaded", downloadedV1, { ip: "198.51.100.7", fileName: "passport_Liza.pdf", browser: "Chrome-122", os: "Android 14", device: "Liza's Pixel", deviceType: "Mobile" }],
    ["TransactionDetailsRecorded", transactionV1, { transactionId: "ch_LIZA", merchantName: "Liza Travel" }],
    ["DefencePackGenerated", packV1, { fileName: "defence-pack-1.pdf", storedPath: "docs/100234/defence-pack-1.pdf" }],
    ["MailFailed", failedV1, { reason: "550 mailbox of Liza is full" }],
  ] as const)("%s v1: its text moves into the personal part, and writes back as the current version", (_type, raw, personal) => {
    const event = decoded(raw);
    expect((event.data as { personal: unknown }).personal).toEqual(personal);
    expect(outsidePersonal(event)).not.toContain("Liza");
    const written = encodeEvent(event);
    expect(written.schemaVersion).toBe(2);
    expect(decoded(written)).toEqual(event);
  });

  it.each([
    ["DocumentUploaded", uploadedV1],
    ["DocumentDownloaded", downloadedV1],
  ] as const)("%s v1 of an erased order: the name goes with the erased personal part", (_type, raw) => {
    const event = decoded({ ...raw, data: { ...raw.data, personal: { erased: true } } });
    expect((event.data as { personal: unknown }).personal).toEqual({ erased: true });
    expect(JSON.stringify(event)).not.toContain("Liza");
  });

  it.each([
    ["TransactionDetailsRecorded", transactionV1],
    ["DefencePackGenerated", packV1],
    ["MailFailed", failedV1],
  ] as const)("%s v1 had no sealed part: a reader of an erased order erases it (withPersonalErased)", (_type, raw) => {
    const event = withPersonalErased(decoded(raw));
    expect((event.data as { personal: unknown }).personal).toEqual({ erased: true });
    expect(JSON.stringify(event)).not.toContain("Liza");
  });
});

describe("the upcaster registry", () => {
  it("leaves no stored version without a way up to the current one", () => {
    expect(missingUpcasters()).toEqual([]);
  });

  it("refuses a version newer than this code knows, rather than guessing", () => {
    const result = decodeEvent({ ...remarkV1({}), schemaVersion: 4 });
    if (Result.isSuccess(result)) expect.fail("decoded a future version");

    expect(result.failure.reason).toBe("UnsupportedVersion");
    expect(result.failure.message).toBe(
      "RemarkAdded is stored at version 4; this code reads versions 1 to 3",
    );
  });

  it.each([0, -1, 1.5])("refuses version %s", (schemaVersion) => {
    const result = decodeEvent({ ...remarkV1({}), schemaVersion });
    expect(Result.isFailure(result) && result.failure.reason).toBe("UnsupportedVersion");
  });
});

describe("OrderClaimed, stored before the card's word, reads as OrderAssigned", () => {
  const storedClaim = {
    type: "OrderClaimed",
    schemaVersion: 1,
    data: { orderId: "100234", from: "New", assignee: { id: "7f3c2a", name: "Maria Santos" } },
    metadata: staffMetadata,
  };

  it("decodes an event stored as OrderClaimed v1 as the current OrderAssigned, data unchanged", () => {
    const result = decodeEvent(storedClaim);
    if (Result.isFailure(result)) expect.fail(result.failure.message);
    expect(result.success).toEqual({ type: "OrderAssigned", data: storedClaim.data, metadata: staffMetadata });
  });

  it("writes new assignments under the new name", () => {
    const result = decodeEvent(storedClaim);
    if (Result.isFailure(result)) expect.fail(result.failure.message);
    expect(encodeEvent(result.success).type).toBe("OrderAssigned");
  });

  it("still refuses an OrderClaimed whose data is not an assignment", () => {
    const result = decodeEvent({ ...storedClaim, data: { orderId: "100234" } });
    expect(Result.isFailure(result) && result.failure.message).toContain("OrderClaimed");
  });
});
