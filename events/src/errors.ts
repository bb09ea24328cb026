/**
 * A stored event that cannot be read as a current event. On the read path this is a fault of
 * the system (a missing upcaster, a bad writer), so the message names the type, the version and
 * the exact field.
 */
export class EventDecodeError extends Error {
  readonly _tag = "EventDecodeError";
  readonly reason: "UnknownEventType" | "UnsupportedVersion" | "MissingUpcaster" | "InvalidEvent";
  readonly eventType: string;
  readonly schemaVersion: number;
  constructor(
    reason: EventDecodeError["reason"],
    eventType: string,
    schemaVersion: number,
    message: string,
  ) {
    super(message);
    this.name = "EventDecodeError";
    this.reason = reason;
    this.eventType = eventType;
    this.schemaVersion = schemaVersion;
  }
}

/** Code tried to append an event its own schema refuses: a bug, never a user's mistake. */
export class EventEncodeError extends Error {
  readonly _tag = "EventEncodeError";
  readonly eventType: string;
  constructor(eventType: string, message: string) {
    super(message);
    this.name = "EventEncodeError";
    this.eventType = eventType;
  }
}
