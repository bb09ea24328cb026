import * as Schema from "effect/Schema";
import { defineEvent } from "../shared/event-definition.ts";

/*
 * What an Admin asks of the running system from the operator's screen (issue 28, ADR 0039), in the
 * single `operations` stream. Each is a request: the process that runs the read models or the
 * reactors carries it out by following the log, so a crash between the request and its effect is
 * finished when that process starts again. The acting Admin is the event's actor.
 */

/** A read model's or a reactor's name as the engine keeps it: lower-case words joined by `_` or `-`. */
const EngineName = Schema.String.check(Schema.isPattern(/^[a-z][a-z0-9_-]{0,63}$/, { message: "must be a read model's or reactor's name" }));

/**
 * Build the read model again from the start of the log, beside the live build, which keeps
 * answering; the new build goes live once it reaches the head. `version` is the read model's
 * version the request was made for (the one running then).
 */
export const ProjectionRebuildRequested = defineEvent(
  "ProjectionRebuildRequested",
  1,
  Schema.Struct({ projection: EngineName, version: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)) }),
);
export type ProjectionRebuildRequested = typeof ProjectionRebuildRequested.schema.Type;

/** Try a failing reactor again now, instead of at the end of its back-off. */
export const ReactorRetryRequested = defineEvent("ReactorRetryRequested", 1, Schema.Struct({ reactor: EngineName }));
export type ReactorRetryRequested = typeof ReactorRetryRequested.schema.Type;

/** Every event type the operations stream may hold (the catalogue reads this list). */
export const OPERATION_EVENTS = [ProjectionRebuildRequested, ReactorRetryRequested] as const;
