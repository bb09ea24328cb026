import * as Result from "effect/Result";
import * as Schema from "effect/Schema";

/**
 * Turns the data of one stored version of an event type into the data of the next version.
 * Upcasters are never removed: events are immutable, so every version ever written stays
 * readable by chaining them (1 → 2 → … → current).
 */
export interface Upcaster {
  readonly type: string;
  readonly fromVersion: number;
  /** Checks the data against the old version's schema, then converts it; fails with a message. */
  readonly upcast: (data: unknown) => Result.Result<unknown, Schema.SchemaError>;
}

/**
 * `from` is the schema of the stored version (kept here, frozen, once the event moves on);
 * `to` is the next version's data schema, used only so `up` is checked against its shape.
 */
export const defineUpcaster = <
  From extends Schema.Codec<unknown, unknown>,
  To extends Schema.Codec<unknown, unknown>,
>(options: {
  readonly type: string;
  readonly fromVersion: number;
  readonly from: From;
  readonly to: To;
  readonly up: (data: From["Type"]) => To["Encoded"];
}): Upcaster => {
  const decodeFrom = Schema.decodeUnknownResult(options.from);
  return {
    type: options.type,
    fromVersion: options.fromVersion,
    upcast: (data) => Result.map(decodeFrom(data, { errors: "all" }), options.up),
  };
};
