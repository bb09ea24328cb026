import { startSesEmulator, type SesEmulator } from "@etd/infra/ses-emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailUnavailable, sesMailer } from "../src/index.ts";
import { closedPort, SAMPLE_PDF, sampleMail } from "./sample.ts";

/*
 * Issue 12 "Must show": the SES adapter against aws-ses-v2-local, started here as its own process
 * on 127.0.0.1 and a port it picks. The emulator parses what it receives but keeps no message tags
 * (neither API stores them), so the SDK talks to it through the harness's recording proxy, and
 * the tags and our Message-ID are checked in the request SES would have received.
 */

let ses: SesEmulator;
const credentials = { region: "eu-west-1", accessKeyId: "AKIDLOCALTEST", secretAccessKey: "local-test-secret" };

beforeAll(async () => {
  ses = await startSesEmulator();
});

afterAll(async () => {
  await ses?.stop();
});

describe("SES adapter against aws-ses-v2-local (issue 12, CROSS-4)", () => {
  it("delivers a mail with its attachment, subject, recipient and tags, and answers with the emulator's message id", async () => {
    const mail = sampleMail();
    const sent = await sesMailer({ ...credentials, endpoint: ses.endpoint }).send(mail);

    expect(sent.transport).toBe("ses");
    const stored = (await ses.stored()).filter((email) => email.messageId === sent.providerMessageId);
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
    const received = ses.sends.find((send) => send.providerMessageId === sent.providerMessageId)!;
    expect(received.tags).toEqual({ eventId: mail.tags.eventId, orderId: "4711" });
    expect(`<${received.messageId}>`).toBe(mail.messageId);
  });

  it("sends one message per call: two mails, two stored messages with different ids", async () => {
    const mailer = sesMailer({ ...credentials, endpoint: ses.emulatorUrl });
    const before = (await ses.stored()).length;
    const [first, second] = [await mailer.send(sampleMail()), await mailer.send(sampleMail())];
    expect(first.providerMessageId).not.toBe(second.providerMessageId);
    expect((await ses.stored()).length).toBe(before + 2);
  });

  it("reports no answer from SES (connection refused) as MailUnavailable, to be retried", async () => {
    const mailer = sesMailer({ ...credentials, endpoint: `http://127.0.0.1:${await closedPort()}` });
    const failure = await mailer.send(sampleMail()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailUnavailable);
    expect((failure as MailUnavailable).providerText).not.toBe("");
  });
});
