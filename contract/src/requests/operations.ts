import * as Schema from "effect/Schema";

/*
 * The operator's screen's paths (issue 28): a read model's or a reactor's name, bounded before the
 * handler looks it up among the running ones (an unknown name answers 404).
 */

const name = Schema.String.check(Schema.isMaxLength(64, { message: "A name is at most 64 characters." }));

/** `/admin/operations/read-models/:name/rebuild` */
export const ReadModelNameParam = Schema.Struct({ name });

/** `/admin/operations/reactors/:name/retry` */
export const ReactorNameParam = Schema.Struct({ name });
