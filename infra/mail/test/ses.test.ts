import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailUnavailable, sesMailer } from "../src/index.ts";
import { closedPort, SAMPLE_PDF, sampleMail } from "./sample.ts";

/*
 * Issue 12 "Must show": the SES adapter against aws-ses-v2-local, started here as its own process
 * on 127.0.0.1 and a port it picks. The emulator parses what it receives but keeps no message tags
 * (neither API stores them), so the SDK talks to it through a small recording proxy, and the tags
 * are checked in the request SES would have received.
 */

let emulator: ChildProcess;
let emulatorUrl = "";
let proxy: Server;
let proxyUrl = "";
const forwarded: { path: string; body: string }[] = [];

const credentials = { region: "eu-west-1", accessKeyId: "AKIDLOCALTEST", secretAccessKey: "local-test-secret" };

beforeAll(async () => {
  const cli = createRequire(import.meta.url).resolve("aws-ses-v2-local/dist/cli.js");
  emulator = spawn(process.execPath, [cli, "--host", "127.0.0.1", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    let output = "";
    emulator.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const found = /server running at http:\/\/[^:]+:(\d+)/.exec(output);
      if (found) resolve(found[1]!);
    });
    emulator.once("exit", (code) => reject(new Error(`aws-ses-v2-local exited (${code}): ${output}`)));
  });
  emulatorUrl = `http://127.0.0.1:${port}`;

  proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      forwarded.push({ path: incoming.url ?? "", body: body.toString() });
      const upstream = request(`${emulatorUrl}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      upstream.on("error", () => outgoing.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  if (emulator?.pid !== undefined && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator.once("exit", resolve));
    process.kill(emulator.pid, "SIGTERM");
    await exited;
  }
});

interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  attachments: { filename?: string; contentType: string; content: string }[];
}

const emulatorStore = async (): Promise<StoredEmail[]> => ((await (await fetch(`${emulatorUrl}/store`)).json()) as { emails: StoredEmail[] }).emails;

describe("SES adapter against aws-ses-v2-local (issue 12, CROSS-4)", () => {
  it("delivers a mail with its attachment, subject, recipient and tags, and answers with the emulator's message id", async () => {
    const mail = sampleMail();
    const sent = await sesMailer({ ...credentials, endpoint: proxyUrl }).send(mail);

    expect(sent.transport).toBe("ses");
    const stored = (await emulatorStore()).filter((email) => email.messageId === sent.providerMessageId);
    expect(stored).toHaveLength(1);
    const email = stored[0]!;
    expect(email.subject).toBe(mail.subject);
    expect(email.destination.to).toEqual([mail.to]);
    expect(email.from).toContain("no-reply@etd.example");
    expect(email.body.text?.trim()).toBe(mail.text);
    expect(email.body.html).toContain(mail.html);
    expect(email.attachments).toHaveLength(1);
    expect(email.attachments[0]!.filename).toBe("etd-4711.pdf");
    expect(email.attachments[0]!.contentType).toBe("application/pdf");
    expect(Buffer.from(email.attachments[0]!.content, "base64").equals(SAMPLE_PDF)).toBe(true);

    // What SES itself received: the raw message with our Message-ID, and the ids as message tags.
    const form = new URLSearchParams(forwarded.at(-1)!.body);
    expect(form.get("Action")).toBe("SendRawEmail");
    const tags = Object.fromEntries(
      [1, 2].map((n) => [form.get(`Tags.member.${n}.Name`), form.get(`Tags.member.${n}.Value`)]),
    );
    expect(tags).toEqual({ eventId: mail.tags.eventId, orderId: "4711" });
    const raw = Buffer.from(form.get("RawMessage.Data")!, "base64").toString();
    expect(raw).toMatch(new RegExp(`^Message-ID: ${mail.messageId}\\r?$`, "m"));
  });

  it("sends one message per call: two mails, two stored messages with different ids", async () => {
    const mailer = sesMailer({ ...credentials, endpoint: emulatorUrl });
    const before = (await emulatorStore()).length;
    const [first, second] = [await mailer.send(sampleMail()), await mailer.send(sampleMail())];
    expect(first.providerMessageId).not.toBe(second.providerMessageId);
    expect((await emulatorStore()).length).toBe(before + 2);
  });

  it("reports no answer from SES (connection refused) as MailUnavailable, to be retried", async () => {
    const mailer = sesMailer({ ...credentials, endpoint: `http://127.0.0.1:${await closedPort()}` });
    const failure = await mailer.send(sampleMail()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailUnavailable);
    expect((failure as MailUnavailable).providerText).not.toBe("");
  });
});
