import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MailRejected, MailUnavailable, sendgridMailer } from "../src/index.ts";
import { closedPort, SAMPLE_PDF, sampleMail } from "./sample.ts";

/*
 * Issue 12 "Must show": the SendGrid adapter against a local HTTP listener standing in for the
 * v3 API, its base URL set through @sendgrid/client. The listener records each request and answers
 * as the test tells it to.
 */

const API_KEY = "SG.local-test-key.0123456789";

let listener: Server;
let baseUrl = "";
const received: { method: string; path: string; headers: IncomingHttpHeaders; body: any }[] = [];
let answer: { status: number; headers?: Record<string, string>; body?: unknown } = { status: 202 };

beforeAll(async () => {
  listener = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      received.push({ method: incoming.method ?? "", path: incoming.url ?? "", headers: incoming.headers, body: JSON.parse(Buffer.concat(chunks).toString() || "null") });
      outgoing.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      outgoing.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(listener.address() as { port: number }).port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
});

beforeEach(() => {
  received.length = 0;
  answer = { status: 202, headers: { "x-message-id": "sg-local-message-1" } };
});

describe("SendGrid adapter against a local listener (issue 12, CROSS-4)", () => {
  it("posts the mail with the API key, the personalisation, custom_args {eventId, orderId} and the attachment", async () => {
    const mail = sampleMail();
    const sent = await sendgridMailer({ apiKey: API_KEY, baseUrl }).send(mail);

    expect(sent).toEqual({ transport: "sendgrid", providerMessageId: "sg-local-message-1" });
    expect(received).toHaveLength(1);
    const request = received[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v3/mail/send");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.body.personalizations).toEqual([{ to: [{ email: "traveller@customer.example" }] }]);
    expect(request.body.from).toEqual({ email: "no-reply@etd.example", name: "ETD Back Office" });
    expect(request.body.subject).toBe(mail.subject);
    expect(request.body.content).toEqual([
      { type: "text/plain", value: mail.text },
      { type: "text/html", value: mail.html },
    ]);
    expect(request.body.custom_args).toEqual({ eventId: mail.tags.eventId, orderId: "4711" });
    expect(request.body.headers).toEqual({ "Message-ID": mail.messageId });
    expect(request.body.attachments).toEqual([
      { filename: "etd-4711.pdf", type: "application/pdf", content: SAMPLE_PDF.toString("base64"), disposition: "attachment" },
    ]);
  });

  it("turns a 4xx answer into MailRejected with SendGrid's own words: do not retry", async () => {
    answer = { status: 400, body: { errors: [{ message: "Does not contain a valid address.", field: "personalizations.0.to.0.email" }] } };
    const failure = await sendgridMailer({ apiKey: API_KEY, baseUrl }).send(sampleMail()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailRejected);
    expect((failure as MailRejected).providerText).toBe("400 personalizations.0.to.0.email: Does not contain a valid address.");
  });

  it("turns a 5xx answer and a 429 (rate limit) into MailUnavailable: retry with backoff", async () => {
    const mailer = sendgridMailer({ apiKey: API_KEY, baseUrl });
    answer = { status: 503, body: { errors: [{ message: "Service Unavailable" }] } };
    const outage = await mailer.send(sampleMail()).catch((error: unknown) => error);
    expect(outage).toBeInstanceOf(MailUnavailable);
    expect((outage as MailUnavailable).providerText).toBe("503 Service Unavailable");
    answer = { status: 429, body: { errors: [{ message: "too many requests" }] } };
    expect(await mailer.send(sampleMail()).catch((error: unknown) => error)).toBeInstanceOf(MailUnavailable);
  });

  it("turns a refused connection into MailUnavailable", async () => {
    const mailer = sendgridMailer({ apiKey: API_KEY, baseUrl: `http://127.0.0.1:${await closedPort()}/` });
    const failure = await mailer.send(sampleMail()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailUnavailable);
    expect((failure as MailUnavailable).providerText).toContain("ECONNREFUSED");
  });
});
