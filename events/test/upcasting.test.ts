import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { decodeEvent, encodeEvent, missingUpcasters } from "../src/index.ts";
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
        remark: "Refund approved by supervisor",
        remarkerName: "Maria Santos",
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

  it("still checks the upcast data against the current schema", () => {
    const result = decodeEvent({ ...remarkV1({}), data: { ...remarkV1({}).data, remark: "   " } });
    if (Result.isSuccess(result)) expect.fail("decoded a blank remark");

    expect(result.failure.message).toContain('["data"]["remark"]');
  });

  it("does not upcast a version-2 remark, and refuses 'Y' strings there", () => {
    const result = decodeEvent({ ...remarkV1({ whatsapp: "Y" }), schemaVersion: 2 });
    if (Result.isSuccess(result)) expect.fail("decoded 'Y' as a version-2 flag");

    expect(result.failure.message).toContain('["data"]["whatsapp"]');
  });
});

describe("the upcaster registry", () => {
  it("leaves no stored version without a way up to the current one", () => {
    expect(missingUpcasters()).toEqual([]);
  });

  it("refuses a version newer than this code knows, rather than guessing", () => {
    const result = decodeEvent({ ...remarkV1({}), schemaVersion: 3 });
    if (Result.isSuccess(result)) expect.fail("decoded a future version");

    expect(result.failure.reason).toBe("UnsupportedVersion");
    expect(result.failure.message).toBe(
      "RemarkAdded is stored at version 3; this code reads versions 1 to 2",
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
