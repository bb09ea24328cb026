import * as Result from "effect/Result";
import type { RecordedEvent } from "@etd/event-store";
import { decodeEvent } from "@etd/events";
import type { ProjectedEvent } from "./projection.ts";
import { BuildBroken } from "./retry-policy.ts";

/** Decodes one recorded event for the projections; one that does not decode stops the build. */
export const toProjected = (raw: RecordedEvent): ProjectedEvent => {
  const decoded = decodeEvent(raw);
  // Never skip: a projection that silently missed an event would be wrong forever.
  if (Result.isFailure(decoded)) throw new BuildBroken(`Cannot project event ${raw.eventId} of ${raw.streamId}: ${decoded.failure.message}`);
  return {
    event: decoded.success,
    eventId: raw.eventId,
    streamId: raw.streamId,
    streamPosition: raw.streamPosition,
    position: raw.position,
    recordedAt: raw.recordedAt,
  };
};
