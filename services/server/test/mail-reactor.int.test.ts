import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { decodeEvent, mailStream, type EventId, type MailEvent } from "@etd/events";
import { postgresAvailable } from "@etd/infra/test-database";
import { startSesEmulator, type SesEmulator } from "@etd/infra/ses-emulator";
import * as Result from "effect/Result";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 12 / CROSS-4 / ORDER-2, ORDER-3: the mail reactor follows the log and really sends: an
 * upload's document mail through SES (the emulator), a resend through the label with no
 * credentials (the outbox), a provider that cannot be reached retried by the schedule and then
 * failed, staff's Retry, and the automatic reminder, exactly once.
 */

const available = await postgresAvailable();
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const SES = { region: "us-east-1", accessKeyId: "AKIDLOCALTEST", secretAccessKey: "local-test-secret" };

const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const mailEvents = async (api: TestApi, mailId: string): Promise<MailEvent[]> =>
  (await api.runtime.deps.store.readStream(mailStream(mailId as EventId))).map((raw) => {
    const decoded = decodeEvent(raw);
    if (Result.isFailure(decoded)) throw decoded.failure;
    return decoded.success as MailEvent;
  });

const eventsUntil = (api: TestApi, mailId: string, type: MailEvent["type"], timeoutMs?: number) =>
  until(`${type} of mail ${mailId}`, async () => {
    const events = await mailEvents(api, mailId);
    return events.some((event) => event.type === type) ? events : undefined;
  }, timeoutMs);

const upload = async (api: TestApi, orderId: string, provider: "AWS" | "Sendgrid", token: string) => {
  const form = new FormData();
  form.append("orderId", orderId);
  form.append("email", "juan.traveller@example.com");
  form.append("mailServiceProvider", provider);
  form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), "etravel.pdf");
  const response = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: token } });
  expect(response.status).toBe(200);
  return (await api.runtime.deps.store.readStream(`order-${orderId}`)).at(-1)!.eventId;
};

describe.skipIf(!available)("the mail reactor (issue 12)", () => {
  let ses: SesEmulator;
  let api: TestApi;

  beforeAll(async () => {
    ses = await startSesEmulator();
    api = await startTestApi({
      runtime: {
        mail: { from: "ETD <no-reply@etd.example>", ses: { ...SES, endpoint: ses.endpoint } },
        mailing: { publicUrl: "https://track.example", reminderAfterMs: 1_500, retryDelaysMs: [200] },
        mailSchedulePollMs: 100,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await ses?.stop();
  });

  it("ORDER-3: an upload's mail goes through SES once, recorded queued then sent with SES's message id; the brand's template links to the tracker", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    const mailId = await upload(api, orderId!, "AWS", team);
    const events = await eventsUntil(api, mailId, "MailSent");
    expect(events.map((event) => event.type)).toEqual(["MailQueued", "MailSent"]);
    const [queued, sent] = events as [Extract<MailEvent, { type: "MailQueued" }>, Extract<MailEvent, { type: "MailSent" }>];
    expect(queued.data).toMatchObject({ orderId, purpose: "document", provider: "AWS", transport: "ses", attempt: 1 });
    expect(queued.data.template).toMatch(/^document\/(primary|secondary)@1$/);
    const sends = ses.sends.filter((send) => send.tags.eventId === mailId);
    expect(sends).toHaveLength(1);
    expect(sent.data.providerMessageId).toBe(sends[0]!.providerMessageId);
    expect(sends[0]!.messageId).toBe(queued.data.messageId.replace(/[<>]/g, ""));
    const stored = (await ses.stored()).find((email) => email.messageId === sent.data.providerMessageId)!;
    expect(stored.destination.to).toEqual(["juan.traveller@example.com"]);
    expect(stored.subject).toContain(`order ${orderId}`);
    expect(stored.body.text).toContain(`https://track.example/track-order/${orderId}`);
    // The attempt keeps the mail as it went.
    expect(queued.data.personal).toMatchObject({ to: "juan.traveller@example.com", subject: stored.subject, text: stored.body.text });

    // ORDER-12 View Email Content: the mail as it was handed to SES.
    const content = await api.call("GET", `/admin/mail-content/${mailId}`, undefined, team);
    expect(content.status).toBe(200);
    expect(content.body.data).toMatchObject({
      mailId,
      orderId,
      subject: stored.subject,
      to: "juan.traveller@example.com",
      transport: "ses",
      text: stored.body.text,
    });
    expect(content.body.data.from).toMatch(/<no-reply@etd\.example>$/);
    expect(content.body.data.html).toContain(`https://track.example/track-order/${orderId}`);
    expect(typeof content.body.data.sentAt).toBe("string");
    expect((await api.call("GET", "/admin/mail-content/0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", undefined, team)).status).toBe(404);
    expect((await api.call("GET", "/admin/mail-content/not-a-mail", undefined, team)).status).toBe(400);
    expect((await api.call("GET", `/admin/mail-content/${mailId}`)).status).toBe(401);
  });

  it("CROSS-4: the label without credentials writes the mail to the outbox, recorded as such", async () => {
    const [orderId] = await api.placeOrders(1);
    const mailId = await upload(api, orderId!, "Sendgrid", await api.login("Team"));
    const events = await eventsUntil(api, mailId, "MailSent");
    expect(events.at(-1)).toMatchObject({ type: "MailSent", data: { transport: "outbox" } });
    const outbox = path.join(api.dataDir, "outbox");
    const files = (await readdir(outbox)).filter((name) => name.includes(mailId));
    expect(files).toHaveLength(1);
    expect(await readFile(path.join(outbox, files[0]!), "utf8")).toContain(`Subject:`);
  });

  it("ORDER-8: one automatic reminder when the document is not downloaded in time, never a second", async () => {
    const [orderId] = await api.placeOrders(1);
    await upload(api, orderId!, "AWS", await api.login("Team"));
    const reminder = await until("the automatic reminder", async () =>
      (await api.runtime.deps.store.readStream(`order-${orderId}`)).find((event) => event.type === "ReminderMailSent"),
    );
    expect(reminder.metadata).toMatchObject({ actor: { kind: "system", name: "reminders" } });
    expect(reminder.data).toMatchObject({ provider: "AWS", personal: { to: "juan.traveller@example.com" } });
    await eventsUntil(api, reminder.eventId, "MailSent");
    const reminderMail = ses.sends.filter((send) => send.tags.eventId === reminder.eventId);
    expect(reminderMail).toHaveLength(1);
    // Several more rounds of the schedule find nothing more to do.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const reminders = (await api.runtime.deps.store.readStream(`order-${orderId}`)).filter((event) => event.type === "ReminderMailSent");
    expect(reminders).toHaveLength(1);
  });
});

describe.skipIf(!available)("the mail reactor when the provider cannot be reached (issue 12)", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({
      runtime: {
        // Nothing listens on port 9 of 127.0.0.1: every SES call fails as unavailable.
        mail: { from: "ETD <no-reply@etd.example>", ses: { ...SES, endpoint: "http://127.0.0.1:9" } },
        mailing: { publicUrl: "https://track.example", reminderAfterMs: 3_600_000, retryDelaysMs: [150, 150] },
        mailSchedulePollMs: 100,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it("CROSS-4: retries with backoff, then stops as failed with the provider's error; staff's Retry sends it again", async () => {
    const [orderId] = await api.placeOrders(1);
    const mailId = await upload(api, orderId!, "AWS", await api.login("Team"));
    const events = await until("three failed attempts", async () => {
      const found = await mailEvents(api, mailId);
      return found.filter((event) => event.type === "MailFailed").length === 3 ? found : undefined;
    });
    expect(events.map((event) => event.type)).toEqual(["MailQueued", "MailFailed", "MailQueued", "MailFailed", "MailQueued", "MailFailed"]);
    const failures = events.filter((event) => event.type === "MailFailed");
    expect(failures.map((event) => event.data.attempt)).toEqual([1, 2, 3]);
    expect(failures.map((event) => event.data.retryAt !== undefined)).toEqual([true, true, false]);
    expect(failures[2]!.data.personal).toMatchObject({ reason: expect.any(String) });

    const manager = await api.login("Manager");
    const retried = await api.call("POST", "/admin/retry-mail", { orderId, mailId }, manager);
    expect(retried.body).toMatchObject({ status: 1 });
    const after = await until("the fourth attempt", async () => {
      const found = await mailEvents(api, mailId);
      return found.filter((event) => event.type === "MailFailed").length === 4 ? found : undefined;
    });
    expect(after.slice(6).map((event) => event.type)).toEqual(["MailRetryRequested", "MailQueued", "MailFailed"]);
  });
});
