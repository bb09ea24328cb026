import * as Result from "effect/Result";
import { describe, expect, it } from "vitest";
import { decodeEvent, encodeEvent, type AnyEvent, type RawEvent } from "../src/index.ts";
import { SAMPLES, staffMetadata } from "./samples.ts";

const assigned = (patch: Partial<RawEvent> = {}): RawEvent => ({
  ...SAMPLES.OrderAssigned,
  schemaVersion: 1,
  ...patch,
});

const failureOf = (raw: RawEvent) => {
  const result = decodeEvent(raw);
  if (Result.isSuccess(result)) return expect.fail(`decoded ${JSON.stringify(raw)}`);
  return result.failure;
};

describe("a stored event that does not fit its schema is refused with a readable message", () => {
  it("names the event, the version, the field and what was expected", () => {
    const failure = failureOf(
      assigned({ data: { orderId: "12ab", from: "Pending", assignee: { id: "7f3c2a", name: "" } } }),
    );

    expect(failure._tag).toBe("EventDecodeError");
    expect(failure.reason).toBe("InvalidEvent");
    expect(failure.eventType).toBe("OrderAssigned");
    expect(failure.message).toBe(
      [
        "Invalid OrderAssigned (version 1): an order id is 6 to 20 digits",
        '  at ["data"]["orderId"]',
        'Expected "New" | "Priority"',
        '  at ["data"]["from"]',
        "must not be empty",
        '  at ["data"]["assignee"]["name"]',
      ].join("\n"),
    );
  });

  it("refuses a status the catalogue does not know", () => {
    const failure = failureOf({
      ...SAMPLES.OrderStatusChanged,
      schemaVersion: 1,
      data: { orderId: "100234", from: "Pending", to: "Archived" },
    });
    expect(failure.message).toContain('["data"]["to"]');
  });

  it("refuses a processing date that is not a calendar day", () => {
    const failure = failureOf({
      ...SAMPLES.OrderPlaced,
      schemaVersion: 1,
      data: { ...SAMPLES.OrderPlaced.data, processingDate: "2025-02-30" },
    });
    expect(failure.message).toContain('expected a calendar date like "2025-03-14", got "2025-02-30"');
    expect(failure.message).toContain('["data"]["processingDate"]');
  });

  it("refuses an unknown event type", () => {
    const failure = failureOf({ ...assigned(), type: "OrderShipped" });
    expect(failure.reason).toBe("UnknownEventType");
    expect(failure.message).toBe('Unknown event type "OrderShipped"');
  });
});

describe("metadata is required on every event (DESIGN §3)", () => {
  it("refuses an event without metadata", () => {
    const failure = failureOf(assigned({ metadata: undefined }));
    expect(failure.message).toContain('["metadata"]');
  });

  it("refuses metadata without an actor, a correlation id or a time", () => {
    const failure = failureOf(assigned({ metadata: { requestIp: "203.0.113.24" } }));
    expect(failure.message).toContain('Missing key\n  at ["metadata"]["actor"]');
    expect(failure.message).toContain('Missing key\n  at ["metadata"]["correlationId"]');
    expect(failure.message).toContain('Missing key\n  at ["metadata"]["occurredAt"]');
  });

  it("refuses a staff actor without a role, and a role the spec does not list", () => {
    const { role: _role, ...noRole } = staffMetadata.actor;
    expect(failureOf(assigned({ metadata: { ...staffMetadata, actor: noRole } })).message).toContain(
      '["metadata"]["actor"]["role"]',
    );
    const intern = { ...staffMetadata.actor, role: "Intern" };
    expect(failureOf(assigned({ metadata: { ...staffMetadata, actor: intern } })).message).toContain(
      '["metadata"]["actor"]["role"]',
    );
  });

  it("refuses a time that is not an ISO 8601 UTC timestamp", () => {
    const failure = failureOf(
      assigned({ metadata: { ...staffMetadata, occurredAt: "14/03/2025 09:26:53" } }),
    );
    expect(failure.message).toContain('["metadata"]["occurredAt"]');
  });
});

describe("encodeEvent writes only what the schema says", () => {
  const decoded = (raw: RawEvent): AnyEvent => Result.getOrThrow(decodeEvent(raw));

  it("refuses a field the schema does not know, so a typo is not written and lost", () => {
    const event = decoded(assigned());
    const withTypo = { ...event, data: { ...event.data, asignee: "Maria" } } as unknown as AnyEvent;
    expect(() => encodeEvent(withTypo)).toThrow(
      /^Cannot encode OrderAssigned: .*\n {2}at \["data"\]\["asignee"\]$/,
    );
  });

  it("AUTH-8 never lets a password into a staff event (DESIGN §3)", () => {
    const event = decoded({ ...SAMPLES.StaffMemberAdded, schemaVersion: 1 });
    const withPassword = { ...event, data: { ...event.data, password: "hunter22" } } as unknown as AnyEvent;
    expect(() => encodeEvent(withPassword)).toThrow(/\["data"\]\["password"\]/);
  });

  it("refuses an event whose values break its schema", () => {
    const event = decoded(assigned());
    const bad = { ...event, data: { ...event.data, orderId: "42" } } as unknown as AnyEvent;
    expect(() => encodeEvent(bad)).toThrow("an order id is 6 to 20 digits");
  });
});

describe("union fields say what they accept", () => {
  it("names the actor kinds", () => {
    const failure = failureOf(assigned({ metadata: { ...staffMetadata, actor: { kind: "robot" } } }));
    expect(failure.message).toContain(
      'Expected an actor of kind "staff", "system" or "customer"\n  at ["metadata"]["actor"]',
    );
  });

  it("says personal data is plain or erased, never ciphertext", () => {
    const failure = failureOf({
      ...SAMPLES.ReminderMailSent,
      schemaVersion: 1,
      data: { ...SAMPLES.ReminderMailSent.data, personal: "AES256:9f8e7d…" },
    });
    expect(failure.message).toContain(
      'Expected the personal data in plain form, or { erased: true }\n  at ["data"]["personal"]',
    );
  });
});
