import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { type AnyEvent, definitionOf } from "./catalogue.ts";
import { EventDecodeError, EventEncodeError } from "./errors.ts";
import { currentTypeOf, upcast } from "./upcasting.ts";

export type JsonObject = { readonly [key: string]: unknown };

/** An event as the store keeps it: plain JSON, with the version its data was written at. */
export interface EncodedEvent<Type extends string = string> {
  readonly type: Type;
  readonly schemaVersion: number;
  readonly data: JsonObject;
  readonly metadata: JsonObject;
}

/** What a store hands back; `data` and `metadata` are checked, not trusted. */
export interface RawEvent {
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
  readonly metadata: unknown;
}

/**
 * Reads a stored event: maps a renamed type to its current name, upcasts its data to the
 * current version, then decodes the whole event with the current schema. Unknown keys are dropped, so an additive change by a newer writer
 * does not stop older readers.
 */
export const decodeEvent = (raw: RawEvent): Result.Result<AnyEvent, EventDecodeError> =>
  Result.flatMap(upcast(raw.type, raw.schemaVersion, raw.data), (data) => {
    const type = currentTypeOf(raw.type);
    // upcast has already refused unknown types.
    const definition = definitionOf(type)!;
    const decoded = Schema.decodeUnknownResult(definition.schema)(
      { type, data, metadata: raw.metadata },
      { errors: "all" },
    );
    return Result.isSuccess(decoded)
      ? Result.succeed(decoded.success as AnyEvent)
      : Result.fail(
          new EventDecodeError(
            "InvalidEvent",
            raw.type,
            raw.schemaVersion,
            `Invalid ${raw.type} (version ${String(raw.schemaVersion)}): ${decoded.failure.message}`,
          ),
        );
  });

/**
 * Prepares an event for the store at its type's current version. Strict where reading is
 * lenient: a field the schema does not know is refused, so a typo cannot be written and lost.
 * Throws EventEncodeError, because only a bug can get here with a bad event.
 */
export const encodeEvent = <E extends AnyEvent>(event: E): EncodedEvent<E["type"]> => {
  const definition = definitionOf(event.type);
  if (definition === undefined) {
    throw new EventEncodeError(event.type, `Unknown event type "${event.type}"`);
  }
  const encoded = Schema.encodeUnknownResult(definition.schema)(event, {
    errors: "all",
    onExcessProperty: "error",
  });
  if (Result.isFailure(encoded)) {
    throw new EventEncodeError(
      event.type,
      `Cannot encode ${event.type}: ${encoded.failure.message}`,
    );
  }
  const { data, metadata } = encoded.success as { data: JsonObject; metadata: JsonObject };
  return { type: event.type, schemaVersion: definition.version, data, metadata };
};
