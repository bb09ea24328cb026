import type { AuditLine, OrderChangedAnswer } from "@etd/contract";
import { formatPosition } from "@etd/event-store";
import { decodeEvent, isErased, isPermanentlyDeleted, orderStream, withPersonalErased, type OrderId } from "@etd/events";
import { describeAuditEvent } from "@etd/projections";
import * as Result from "effect/Result";
import type { ApiDeps } from "../api-deps.ts";

/*
 * "Changed since you opened it" (issue 11, ADR 0014): what happened to an order after the version
 * the page showed. Read from the order's stream in the event store, not from a read model: the
 * read model may lag behind the very event that caused the refusal, and the page must be able to
 * name it. One readable line per event, in the audit timeline's words (describeAuditEvent), with
 * who, when and from which address from the event's metadata.
 */
/** At most this many changes in one answer. */
export const MAX_CHANGES = 20;

export const orderChangedAnswer = async (
  deps: Pick<ApiDeps, "store">,
  orderId: OrderId,
  afterVersion: bigint,
  /** Request addresses are audit data ("audit.read"): others learn who and what, not from where. */
  withAddresses: boolean,
): Promise<OrderChangedAnswer> => {
  const streamId = orderStream(orderId);
  // The whole stream: a resend's sentence names the document current before it, which an earlier
  // upload set. Order streams are short (tens of events).
  const recorded = await deps.store.readStream(streamId);
  const changes: AuditLine[] = [];
  let currentFileName: string | undefined;
  // An unreadable event cannot be described; the handler would have refused to fold it already.
  const events = recorded.flatMap((raw) => {
    const decoded = decodeEvent(raw);
    return Result.isSuccess(decoded) ? [{ raw, event: decoded.success }] : [];
  });
  // An erased order's older events may hold in the clear what is sealed now: read as erased.
  const erased = isPermanentlyDeleted(events.map(({ event }) => event));
  for (const { raw, event: stored } of events) {
    const event = erased ? withPersonalErased(stored) : stored;
    if (raw.streamPosition > afterVersion) {
      const { actor } = event.metadata;
      changes.push({
        stream: streamId,
        position: Number(raw.streamPosition),
        log_position: formatPosition(raw.position),
        event_id: raw.eventId,
        occurred_at: event.metadata.occurredAt,
        actor_kind: actor.kind,
        actor_name: actor.kind === "customer" ? "traveller" : actor.name,
        actor_role: actor.kind === "staff" ? actor.role : null,
        request_ip: withAddresses ? (event.metadata.requestIp ?? null) : null,
        event_type: event.type,
        // Order events name no staff or gateway by id that the sentence would look up.
        summary: describeAuditEvent(event, { currentFileName, staff: () => undefined, gatewayName: () => undefined }),
      });
    }
    if (event.type === "DocumentUploaded") currentFileName = isErased(event.data.personal) ? undefined : event.data.personal.fileName;
  }
  // The latest ones: a page a few changes behind needs them all; a version far behind is not a
  // page someone is looking at, and the answer is no way to read a long history without audit.read.
  return { changed: true, version: Number(recorded.at(-1)?.streamPosition ?? 0n), changes: changes.slice(-MAX_CHANGES) };
};
