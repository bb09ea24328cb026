import { randomUUID } from "node:crypto";
import { postgresAvailable } from "@etd/infra/test-database";
import { mailStream, orderStream, type EventId, type OrderId } from "@etd/events";
import { handleCommand, mailDecider, type MailCommand } from "@etd/write";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RETRY_MAIL_MESSAGE } from "@etd/api/internal/routes/mail-routes.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 12, ORDER-2: Retry on Email History, POST /api/admin/retry-mail {orderId, mailId}. The
 * mail reactor is stopped here, so that the test alone writes each mail's stream (as the reactor
 * would: an attempt queued, then its outcome) and the mail's state is exactly what it set up.
 */

const available = await postgresAvailable();

const PDF = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

describe.skipIf(!available)("issue 12: Retry on a mail (ORDER-2, QUEUE-12)", () => {
  let api: TestApi;
  let orderId: string;
  let team: string;
  let admin: string;
  let failedMail: string;
  let sentMail: string;

  const mailEvents = async (mailId: string) => (await api.runtime.deps.store.readStream(mailStream(mailId as EventId))).map((e) => e.type);

  /** What the mail reactor records around a provider call, through the mail's own decider. */
  const asReactor = async (mailId: string, command: (attempt: number) => MailCommand) => {
    const events = await api.runtime.deps.store.readStream(mailStream(mailId as EventId));
    const attempt = events.filter((e) => e.type === "MailQueued").length;
    const outcome = await handleCommand(mailDecider, command(attempt), {
      store: api.runtime.deps.store,
      streamId: mailStream(mailId as EventId),
      metadata: { actor: { kind: "system", name: "mail-reactor" }, correlationId: `test-${randomUUID()}` },
    });
    if (!outcome.ok) throw new Error(`the mail's decider refused: ${outcome.refusal.message}`);
    return outcome.position!;
  };
  const queue = (mailId: string) =>
    asReactor(mailId, () => ({
      type: "QueueMail",
      mailId: mailId as EventId,
      orderId: orderId as OrderId,
      purpose: "document",
      provider: "AWS",
      transport: "ses",
      messageId: `<${mailId}@mail.etd.example>`,
      template: "document/primary",
      from: "ETD <no-reply@etd.example>",
      content: { to: "juan@example.com", subject: "Your eTravel document", text: "Ready.", html: "<p>Ready.</p>" },
      now: new Date(),
    }));

  /** Email History as the page reads it once the read model holds `position`. */
  const historyAt = async (position: string): Promise<Record<string, any>[]> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const response = await fetch(`${api.base}/api/admin/get-orders-details/${orderId}`, { headers: { authorization: admin, "x-read-after": position } });
      const body = (await response.json()) as Record<string, any>;
      if (response.headers.get("x-read-after-reached") === "true") return body.data.mailHistory as Record<string, any>[];
      if (Date.now() > deadline) throw new Error(`the read model did not reach ${position}`);
    }
  };

  beforeAll(async () => {
    api = await startTestApi();
    for (const reactor of await api.runtime.startReactors()) await reactor.stop();
    [orderId] = (await api.placeOrders(1)) as [string];
    team = await api.login("Team");
    admin = await api.login("Admin");
    // The order is Team's (assigned), so other members below Manager only read it (QUEUE-12).
    expect((await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, team)).body.status).toBe(1);
    const form = new FormData();
    form.append("orderId", orderId);
    form.append("email", "juan@example.com");
    form.append("mailServiceProvider", "AWS");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), "visa.pdf");
    const uploaded = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: team } });
    expect(((await uploaded.json()) as Record<string, any>).status).toBe(1);
    expect((await api.call("POST", "/admin/resend-mail", { orderId, email: "juan@example.com", mailServiceProvider: "AWS" }, team)).body.status).toBe(1);
    // The mails' ids are the ids of the order events that asked for them.
    const requests = (await api.runtime.deps.store.readStream(orderStream(orderId as OrderId))).filter((e) => e.type === "DocumentUploaded" || e.type === "DocumentMailResent");
    [failedMail, sentMail] = requests.map((e) => e.eventId) as [string, string];

    await queue(failedMail);
    await asReactor(failedMail, (attempt) => ({ type: "RecordMailFailure", mailId: failedMail as EventId, attempt, reason: "554 Message rejected", permanent: true, retryDelaysMs: [], now: new Date() }));
    await queue(sentMail);
    await asReactor(sentMail, (attempt) => ({ type: "RecordMailSent", mailId: sentMail as EventId, attempt, transport: "ses", providerMessageId: "0100018e-ses-1" }));
  });

  afterAll(async () => {
    await api?.close();
  });

  it("refuses a member for whom the order is read-only (QUEUE-12): 403, the mail's stream unchanged", async () => {
    const nightStaff = await api.login("Night Staff");
    const before = await mailEvents(failedMail);
    const answer = await api.call("POST", "/admin/retry-mail", { orderId, mailId: failedMail }, nightStaff);
    expect(answer.status).toBe(403);
    expect(answer.body.status).toBe(0);
    expect(await mailEvents(failedMail)).toEqual(before);
  });

  it("refuses a mail that was sent: 409, the mail's stream unchanged", async () => {
    const before = await mailEvents(sentMail);
    const answer = await api.call("POST", "/admin/retry-mail", { orderId, mailId: sentMail }, team);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ status: 0, message: expect.stringContaining("sent") });
    expect(await mailEvents(sentMail)).toEqual(before);
  });

  it("answers 404 for a mail that does not exist, or is another order's, and writes nothing", async () => {
    const unknown = randomUUID();
    const answer = await api.call("POST", "/admin/retry-mail", { orderId, mailId: unknown }, team);
    expect(answer.status).toBe(404);
    expect(await mailEvents(unknown)).toEqual([]);
    const [otherOrder] = (await api.placeOrders(1)) as [string];
    expect((await api.call("POST", "/admin/retry-mail", { orderId: otherOrder, mailId: failedMail }, admin)).status).toBe(404);
  });

  it("refuses a mail id that is not one, with the message, before anything runs", async () => {
    const answer = await api.call("POST", "/admin/retry-mail", { orderId, mailId: "not-a-mail" }, team);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("Please choose a mail from Email History.");
  });

  it("accepts a failed mail: 'The mail will be sent again.', Retry recorded in the mail's stream, Email History says so, the order's version unchanged", async () => {
    const versionBefore = (await api.runtime.deps.store.readStream(orderStream(orderId as OrderId))).length;
    const answer = await api.call("POST", "/admin/retry-mail", { orderId, mailId: failedMail }, team);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 1, message: RETRY_MAIL_MESSAGE, data: { position: expect.any(String) } });
    expect(await mailEvents(failedMail)).toEqual(["MailQueued", "MailFailed", "MailRetryRequested"]);
    const history = await historyAt(answer.body.data.position as string);
    expect(history.find((mail) => mail.id === failedMail)).toMatchObject({ status: "failed", reason: "554 Message rejected", retry_at: null, retry_requested: true });
    expect(history.find((mail) => mail.id === sentMail)).toMatchObject({ status: "sent", transport: "ses", retry_requested: false });
    expect((await api.runtime.deps.store.readStream(orderStream(orderId as OrderId))).length).toBe(versionBefore);
    // Pressed again before the reactor picked it up: nothing more to record.
    const again = await api.call("POST", "/admin/retry-mail", { orderId, mailId: failedMail }, team);
    expect(again.body.status).toBe(1);
    expect(await mailEvents(failedMail)).toEqual(["MailQueued", "MailFailed", "MailRetryRequested"]);
  });
});
