import { mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { outboxFileName, outboxMailer } from "../src/index.ts";
import { SAMPLE_PDF, sampleMail } from "./sample.ts";

/* Issue 12 "Must show": the outbox by its files (DESIGN §8: used when a provider has no credentials). */

let dataDir = "";
let outbox = "";

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "etd-outbox-"));
  outbox = path.join(dataDir, "outbox");
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("outbox adapter (issue 12, CROSS-4)", () => {
  it("writes one .eml that parses back to the mail: headers, text, HTML and the attachment as a base64 part", async () => {
    const mail = sampleMail();
    const sent = await outboxMailer(outbox).send(mail);

    expect(sent).toEqual({ transport: "outbox", providerMessageId: outboxFileName(mail.messageId) });
    expect(await readdir(outbox)).toEqual([sent.providerMessageId]);
    const raw = await readFile(path.join(outbox, sent.providerMessageId));
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe(mail.messageId);
    expect(parsed.from?.value).toEqual([{ address: "no-reply@etd.example", name: "ETD Back Office" }]);
    expect(parsed.to).toMatchObject({ value: [{ address: "traveller@customer.example" }] });
    expect(parsed.subject).toBe(mail.subject);
    expect(parsed.text?.trim()).toBe(mail.text);
    expect(parsed.html).toContain(mail.html);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]).toMatchObject({ filename: "etd-4711.pdf", contentType: "application/pdf", contentDisposition: "attachment" });
    expect(parsed.attachments[0]!.content.equals(SAMPLE_PDF)).toBe(true);
    expect(raw.toString()).toMatch(/Content-Type: application\/pdf; name=etd-4711\.pdf\r\nContent-Transfer-Encoding: base64/);
  });

  it("keeps the mail private: file 0600, folder 0700, even a folder that already existed with wider rights", async () => {
    await mkdir(outbox, { mode: 0o755 });
    const sent = await outboxMailer(outbox).send(sampleMail());
    expect((await stat(path.join(outbox, sent.providerMessageId))).mode & 0o777).toBe(0o600);
    expect((await stat(outbox)).mode & 0o777).toBe(0o700);
  });

  it("writes the same messageId once: a second send, even with other content, leaves the first file alone", async () => {
    const mailer = outboxMailer(outbox);
    const mail = sampleMail();
    const first = await mailer.send(mail);
    const again = await mailer.send({ ...mail, subject: "Changed subject" });

    expect(again).toEqual(first);
    expect(await readdir(outbox)).toEqual([first.providerMessageId]);
    expect((await simpleParser(await readFile(path.join(outbox, first.providerMessageId)))).subject).toBe(mail.subject);
  });

  it("writes one file when the same messageId is sent concurrently, and leaves no temp file behind", async () => {
    const mail = sampleMail();
    const mailers = [outboxMailer(outbox), outboxMailer(outbox)];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => mailers[n % 2]!.send({ ...mail, subject: `copy ${n}` })));
    expect(new Set(answers.map((answer) => answer.providerMessageId)).size).toBe(1);
    expect(await readdir(outbox)).toEqual([answers[0]!.providerMessageId]);
    expect((await simpleParser(await readFile(path.join(outbox, answers[0]!.providerMessageId)))).subject).toMatch(/^copy \d$/);
  });

  it("gives different messageIds different files, even ids a file name cannot tell apart", async () => {
    expect(outboxFileName("<a/b@etd.example>")).not.toBe(outboxFileName("<a_b@etd.example>"));
    expect(outboxFileName("<x@etd.example>")).toBe(outboxFileName("x@etd.example"));
    const mailer = outboxMailer(outbox);
    await mailer.send(sampleMail({ messageId: "<a/b@etd.example>" }));
    await mailer.send(sampleMail({ messageId: "<a_b@etd.example>" }));
    expect(await readdir(outbox)).toHaveLength(2);
  });
});
