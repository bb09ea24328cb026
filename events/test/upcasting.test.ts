import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { decodeEvent, encodeEvent, isPermanentlyDeleted, missingUpcasters, remarkText, withRemarkErased } from "../src/index.ts";
import { staffMetadata } from "./samples.ts";

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
    const erased = withRemarkErased(result.success);
    expect(JSON.stringify(erased)).not.toContain("P1234567");
    expect(isPermanentlyDeleted([result.success])).toBe(false);
    expect(isPermanentlyDeleted([result.success, { type: "OrderPermanentlyDeleted" }])).toBe(true);
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
