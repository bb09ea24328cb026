import * as Schema from "effect/Schema";
import { EventMetadata } from "./metadata.ts";

/**
 * One event type: its name, the version of its data that writers produce today, and the schema
 * of that version. Older versions are read through upcasters (see `upcasting.ts`).
 */
export interface EventDefinition<
  Type extends string = string,
  Data extends Schema.Codec<unknown, unknown> = Schema.Codec<unknown, unknown>,
> {
  readonly type: Type;
  readonly version: number;
  readonly data: Data;
  /** The whole event as code sees it: `{type, data, metadata}`. */
  readonly schema: Schema.Struct<{
    readonly type: Schema.Literal<Type>;
    readonly data: Data;
    readonly metadata: typeof EventMetadata;
  }>;
}

export const defineEvent = <const Type extends string, Data extends Schema.Codec<unknown, unknown>>(
  type: Type,
  version: number,
  data: Data,
): EventDefinition<Type, Data> => ({
  type,
  version,
  data,
  schema: Schema.Struct({ type: Schema.Literal(type), data, metadata: EventMetadata }),
});
