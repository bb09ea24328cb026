import type { RecordedEvent } from "@etd/event-store";
import { parseStreamName } from "@etd/events";
import { storageKey, type DocumentStorage } from "../storage/storage.ts";
import type { Reactor } from "./reactor.ts";

/*
 * A permanent delete (DESIGN §4, §8) is decided and recorded first; this reactor then erases what
 * the log cannot: the order's key (its sealed personal data becomes unreadable), and every file
 * kept under `docs/{orderId}/` — the uploaded documents and the rendered defence packs, which
 * carry the traveller's name and e-mail. Both steps are idempotent, so a crash at any point is
 * finished when the reactor replays the event on restart.
 */

export interface ErasureDeps {
  /** Destroys a stream's key; idempotent. */
  readonly forget: (streamId: string) => Promise<void>;
  readonly storage: DocumentStorage;
}

export const ERASURE_REACTOR = "erasure";

export const erasureReactor = ({ forget, storage }: ErasureDeps): Reactor => ({
  name: ERASURE_REACTOR,
  react: async (event: RecordedEvent) => {
    if (event.type !== "OrderPermanentlyDeleted") return;
    const stream = parseStreamName(event.streamId);
    if (stream?.category !== "order") return;
    await forget(event.streamId);
    const folder = storageKey("docs", stream.orderId);
    if (folder) await storage.removeFolder(folder);
  },
});
