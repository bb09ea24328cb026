import { createHash, randomBytes } from "node:crypto";
import { chmod, link, mkdir, open, unlink } from "node:fs/promises";
import path from "node:path";
import { composeMime } from "./mime.ts";
import { MailUnavailable, refuseUnaddressable, type Mailer, type OutgoingMail, type SentMail } from "./port.ts";

/**
 * The file name for a Message-ID: its readable part (for staff browsing the folder) and a hash of
 * the whole id, so two ids that differ only in characters a file name cannot hold never share a file.
 */
export const outboxFileName = (messageId: string): string => {
  const readable = messageId.replace(/^<|>$/g, "").replace(/[^A-Za-z0-9._@-]/g, "_").slice(0, 80);
  const hash = createHash("sha256").update(messageId.replace(/^<|>$/g, "")).digest("hex").slice(0, 16);
  return `${readable}.${hash}.eml`;
};

/**
 * The local outbox (DESIGN §8): one RFC 5322 `.eml` file per mail under `dir`, for a provider
 * without credentials, so `npm start` works offline and staff can open what would have been sent.
 * The file appears whole or not at all (written to a temp file, synced, then linked into place),
 * and never replaces another: `link` fails on an existing name where `rename` would overwrite. So
 * the same Message-ID sent twice is one file, the first, which is this adapter's idempotency.
 * Files are 0600 and the folder 0700: mails carry customers' personal data.
 */
export const outboxMailer = (dir: string): Mailer => {
  let ready: Promise<void> | undefined;
  const prepare = () =>
    (ready ??= (async () => {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // mkdir's mode does not change a folder that was already there.
      await chmod(dir, 0o700);
    })());
  return {
    transport: "outbox",
    async send(mail: OutgoingMail): Promise<SentMail> {
      refuseUnaddressable("outbox", mail);
      const name = outboxFileName(mail.messageId);
      const bytes = await composeMime(mail);
      try {
        await prepare();
        await writeOnce(dir, name, bytes);
      } catch (error) {
        ready = undefined;
        throw new MailUnavailable("outbox", `could not write ${path.join(dir, name)}: ${(error as Error).message}`, { cause: error });
      }
      return { transport: "outbox", providerMessageId: name };
    },
  };
};

const writeOnce = async (dir: string, name: string, bytes: Buffer): Promise<void> => {
  const temp = path.join(dir, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
  const file = await open(temp, "wx", 0o600);
  try {
    await file.writeFile(bytes);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await link(temp, path.join(dir, name));
  } catch (error) {
    // Already there: this Message-ID was written before, and the first copy stands.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temp);
  }
  // The new name is durable only once the folder itself is synced.
  const folder = await open(dir, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
};
