import * as Result from "effect/Result";
import type { EventStore, GlobalPosition, RecordedEvent } from "@etd/event-store";
import { decodeEvent, type AnyEvent } from "@etd/events";

/*
 * The audit's questions about the whole log (a folder at a past moment, one member's activity)
 * are answered by reading the whole log, in order, through the store port: the API's store
 * decrypts personal data, and an erased order's comes back `{ erased: true }`.
 *
 * Scale: this is a full scan per request, O(events in the log), fine for the tests and the demo:
 * a 20,000-event log of small staff events scanned in 0.6 to 1.0 s on a shared two-core test
 * machine, and order events, decrypted, cost more. A production version would keep an index
 * beside the log, written in the same transaction as each append: (occurred_at, stream) for the
 * folder at a moment (read only the order streams' events up to `at`, or start from a daily
 * snapshot of the queue rows) and (actor id, occurred_at) for a member's activity, so each answer
 * reads the events it names and no others.
 */

const PAGE = 1_000;

// One scan at a time in this process: a burst of audit questions waits its turn instead of
// multiplying the load every staff member's reads share.
let turn: Promise<unknown> = Promise.resolve();

/** Calls `visit` with every event of the log in log order, decoded (upcast) as readers see it. */
export const scanLog = (store: Pick<EventStore, "readAll">, visit: (raw: RecordedEvent, event: AnyEvent) => void): Promise<void> => {
  const scan = turn.then(() => scanAll(store, visit));
  turn = scan.catch(() => undefined);
  return scan;
};

const scanAll = async (store: Pick<EventStore, "readAll">, visit: (raw: RecordedEvent, event: AnyEvent) => void): Promise<void> => {
  let after: GlobalPosition | undefined;
  for (;;) {
    const page = await store.readAll({ ...(after ? { after } : {}), limit: PAGE });
    for (const raw of page) {
      const decoded = decodeEvent(raw);
      // An event no reader can decode is a defect to surface, never an entry to leave out of an audit.
      if (Result.isFailure(decoded)) throw new Error(`Unreadable event ${raw.eventId} in ${raw.streamId}: ${decoded.failure.message}`);
      visit(raw, decoded.success);
    }
    if (page.length < PAGE) return;
    after = page.at(-1)!.position;
  }
};
