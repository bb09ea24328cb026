import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { RecordedEvent } from "@etd/event-store";
import { isMailRequestType, mailStream, parseStreamName, type EventId } from "@etd/events";
import { storageKey, type DocumentStorage } from "@etd/storage";
import type { Reactor } from "@etd/event-store";

/*
 * A permanent delete (DESIGN §4, §8) is decided and recorded first; this reactor then erases what
 * the log cannot: the order's key (its sealed personal data becomes unreadable), and every file
 * kept under `docs/{orderId}/` — the uploaded documents and the rendered defence packs, which
 * carry the traveller's name and e-mail — and the keys of the order's mails, whose streams keep
 * each mail as it was sent (and a provider's answer), with the outbox's `.eml` copies of them,
 * named by each mail's id. Every step is idempotent, so a crash at any point is finished when the
 * reactor replays the event on restart. What the read models derived is blanked by their own
 * projections when they fold the same event (ADR 0009).
 */

export interface ErasureDeps {
  /** Destroys a stream's key; idempotent. */
  readonly forget: (streamId: string) => Promise<void>;
  readonly storage: DocumentStorage;
  /** The order's stream as stored, to find its mails. */
  readonly readStream: (streamId: string) => Promise<readonly RecordedEvent[]>;
  /** Where the outbox keeps the mails it "sent" (named by Message-ID, which starts with the mail's id). */
  readonly outboxDir: string;
}

/** The outbox's copies of these mails: they carry the traveller's name and address. */
const removeOutboxCopies = async (outboxDir: string, mailIds: readonly string[]): Promise<void> => {
  const names = await readdir(outboxDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  for (const name of names) {
    if (mailIds.some((mailId) => name.startsWith(`${mailId}.`))) await rm(path.join(outboxDir, name), { force: true });
  }
};

export const ERASURE_REACTOR = "erasure";

export const erasureReactor = ({ forget, storage, readStream, outboxDir }: ErasureDeps): Reactor => ({
  name: ERASURE_REACTOR,
  react: async (event: RecordedEvent) => {
    if (event.type !== "OrderPermanentlyDeleted") return;
    const stream = parseStreamName(event.streamId);
    if (stream?.category !== "order") return;
    const mailIds = (await readStream(event.streamId)).filter((recorded) => isMailRequestType(recorded.type)).map((recorded) => recorded.eventId);
    for (const mailId of mailIds) await forget(mailStream(mailId as EventId));
    await removeOutboxCopies(outboxDir, mailIds);
    await forget(event.streamId);
    const folder = storageKey("docs", stream.orderId);
    if (folder) await storage.removeFolder(folder);
  },
});
