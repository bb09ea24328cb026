import * as Result from "effect/Result";
import { CATALOGUE, definitionOf } from "./catalogue.ts";
import { EventDecodeError } from "./errors.ts";
import { MAIL_UPCASTERS } from "./mail/mail-upcasters.ts";
import { ORDER_RENAMES, ORDER_UPCASTERS } from "./orders/order-upcasters.ts";
import type { Upcaster } from "./shared/upcaster.ts";

/** Every upcaster of every event type. Staff and gateway events have none yet. */
export const UPCASTERS: ReadonlyArray<Upcaster> = [...ORDER_UPCASTERS, ...MAIL_UPCASTERS];

/** Every renamed event type, stored name → current name. */
export const RENAMED_TYPES: ReadonlyMap<string, string> = new Map([...ORDER_RENAMES]);

/** The current name of a stored event type: itself unless the type was renamed since. */
export const currentTypeOf = (storedType: string): string => RENAMED_TYPES.get(storedType) ?? storedType;

const key = (type: string, fromVersion: number) => `${type}@${fromVersion}`;
const registry: ReadonlyMap<string, Upcaster> = new Map(
  UPCASTERS.map((u) => [key(u.type, u.fromVersion), u]),
);

/**
 * Brings stored data up to the current version of its type, one version at a time. Used on
 * every read path (deciders and projectors alike) through `decodeEvent`.
 */
export const upcast = (
  storedType: string,
  schemaVersion: number,
  data: unknown,
): Result.Result<unknown, EventDecodeError> => {
  const type = currentTypeOf(storedType);
  const definition = definitionOf(type);
  if (definition === undefined) {
    return Result.fail(
      new EventDecodeError("UnknownEventType", type, schemaVersion, `Unknown event type "${type}"`),
    );
  }
  if (!Number.isInteger(schemaVersion) || schemaVersion < 1 || schemaVersion > definition.version) {
    // A newer version than ours means a newer writer: this reader must be upgraded, not guess.
    return Result.fail(
      new EventDecodeError(
        "UnsupportedVersion",
        type,
        schemaVersion,
        `${type} is stored at version ${String(schemaVersion)}; this code reads versions 1 to ${String(definition.version)}`,
      ),
    );
  }
  let current = data;
  for (let version = schemaVersion; version < definition.version; version++) {
    const upcaster = registry.get(key(type, version));
    if (upcaster === undefined) {
      return Result.fail(
        new EventDecodeError(
          "MissingUpcaster",
          type,
          schemaVersion,
          `${type} has no upcaster from version ${String(version)} to ${String(version + 1)}`,
        ),
      );
    }
    const next = upcaster.upcast(current);
    if (Result.isFailure(next)) {
      return Result.fail(
        new EventDecodeError(
          "InvalidEvent",
          type,
          schemaVersion,
          `Invalid ${type} (stored as version ${String(version)}): ${next.failure.message}`,
        ),
      );
    }
    current = next.success;
  }
  return Result.succeed(current);
};

/**
 * Gaps in the chains, as "Type vN": every stored version below the current one needs an
 * upcaster, or events written at that version become unreadable. A test keeps this empty.
 */
export const missingUpcasters = (): ReadonlyArray<string> =>
  CATALOGUE.flatMap((definition) =>
    Array.from({ length: definition.version - 1 }, (_, i) => i + 1)
      .filter((version) => !registry.has(key(definition.type, version)))
      .map((version) => `${definition.type} v${String(version)}`),
  );
