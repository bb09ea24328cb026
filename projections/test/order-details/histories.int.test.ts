import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import { IsoDate, IsoDateTime, orderStream } from "@etd/events";
import type { OrderCommand, OrderState } from "@etd/write";
import { downloadHistory, orderDetails, orderDetailsProjection, type OrderDetails } from "../../src/order-details/index.ts";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import {
  ALICIA,
  asStaff,
  CARLO,
  createLog,
  CUSTOMER,
  demoInputs,
  mailOf,
  MARIA,
  pick,
  placeOrder,
  refOf,
  TEAM,
  type StreamRunner,
} from "./support/story.ts";

/*
 * The histories on an order (001 §3 "Related records on an order"): Email History with its
 * Remainder Mail column and each mail's state from its own stream (ORDER-2, issue 12), the current document (ORDER-3), Download History for staff
 * (ORDER-8) and for the traveller (PUBLIC-2), and Comment History with its flags (ORDER-9).
 */

const input = pick(demoInputs(), "an arrival by air", (o) => o.application.travel_type === "arrival" && o.application.transportation_type === "air");
const CUSTOMER_EMAIL = input.personal.email;
const ANDROID = { browser: "Chrome", os: "Android", device: "Android device", deviceType: "Mobile", timezone: "EST" };
const PAYMENT = { amount: "49.00", currency: "USD" };
const WINDOWS = { browser: "Edge", os: "Windows", device: "Computer", deviceType: "Desktop", timezone: "EST" };

/** A day of work on one order, as staff, the mail reactor, the providers' webhooks and the traveller produce it. */
const workTheOrder = () => {
  const log = createLog("2025-03-14T12:30:00.000Z");
  const order: StreamRunner<OrderCommand, OrderState> & { readonly orderId: typeof input.orderId } = placeOrder(log, { ...input, payment: PAYMENT });
  const { orderId } = order;
  const remark = (text: string, flags: Partial<Record<"whatsapp" | "telephone" | "statusRefund" | "voided" | "chargeBack" | "reportError", boolean>>) =>
    order.run(
      {
        type: "AddRemark",
        orderId,
        remark: text,
        remarkerName: ALICIA.name,
        whatsapp: false,
        telephone: false,
        statusRefund: false,
        voided: false,
        chargeBack: false,
        reportError: false,
        ...flags,
        today: IsoDate.make(log.today()),
        actor: ALICIA,
      },
      asStaff(ALICIA),
    );

  log.advance(40);
  order.run({ type: "AssignOrder", orderId, assignee: refOf(ALICIA), now: log.now() }, asStaff(ALICIA));
  log.advance(12);
  remark("Called the customer about the hotel name", { whatsapp: true, telephone: true });
  log.advance(60);
  const upload = order.run(
    {
      type: "UploadDocument",
      orderId,
      fileName: "etravel.pdf",
      storedPath: `docs/${orderId}/etravel.pdf`,
      contentType: "application/pdf",
      sizeBytes: 48_213,
      // Not the assignee: an Admin may work anyone's order (QUEUE-12).
      actor: CARLO,
      provider: "AWS",
      to: CUSTOMER_EMAIL,
    },
    asStaff(CARLO),
  );
  // The upload's mail: sent through SES, delivered, and then the recipient calls it spam; a
  // late delivery report after the complaint does not hide it.
  const uploadMail = mailOf(log, upload);
  uploadMail.queued("ses");
  uploadMail.sent("ses", "0100018e3f-ses-1");
  log.advance(1);
  uploadMail.reported("delivered", "ses-delivery-1", "2025-03-14T14:23:10.000Z");
  order.run({ type: "ChangeStatus", orderId, to: "Completed", actor: ALICIA, permanentDelete: false }, asStaff(ALICIA));
  log.advance(180);
  order.run({ type: "RecordDownload", orderId, fileName: "etravel.pdf", now: new Date(log.now()), ip: "198.51.100.7", location: "Philippines", ...ANDROID }, CUSTOMER);
  uploadMail.reported("complained", "ses-complaint-1", "2025-03-14T17:30:00.000Z");
  uploadMail.reported("delivered", "ses-delivery-2", "2025-03-14T17:31:00.000Z");
  log.advance(600);
  // Resent through Sendgrid: the first attempt fails for a passing reason, the second is sent,
  // then bounces.
  const resend = order.run({ type: "ResendDocumentMail", orderId, provider: "Sendgrid", to: CUSTOMER_EMAIL, actor: MARIA }, asStaff(MARIA));
  const resendMail = mailOf(log, resend);
  resendMail.queued("sendgrid");
  resendMail.failed("421 mailbox busy", 5);
  log.advance(5);
  resendMail.queued("sendgrid");
  resendMail.sent("sendgrid", "sg-14c5d3");
  resendMail.reported("bounced", "sg-event-9", "2025-03-15T00:40:00.000Z", { reason: "bounce (5.1.1)", permanent: true });
  log.advance(60);
  // The reminder fails for good; Alicia, whose order it is, presses Retry.
  const reminder = order.run({ type: "SendReminderMail", orderId, provider: "AWS", to: CUSTOMER_EMAIL, actor: ALICIA }, asStaff(ALICIA));
  const reminderMail = mailOf(log, reminder);
  reminderMail.queued("ses");
  reminderMail.failed("SES throttled the request");
  reminderMail.retryAskedBy(ALICIA, order.state());
  // The invoice's attempt was recorded, then the sender stopped before hearing back.
  const invoice = order.run(
    { type: "SendInvoice", orderId, provider: "AWS", invoice: { number: "2025-000001", issuedAt: IsoDateTime.make(log.now()), gatewayName: "Stripe", ...PAYMENT } },
    asStaff(MARIA),
  );
  const invoiceMail = mailOf(log, invoice);
  invoiceMail.queued("outbox");
  invoiceMail.unknown();
  log.advance(30);
  remark("Customer asked for the money back", { statusRefund: true, reportError: true });
  log.advance(24 * 60);
  order.run({ type: "RecordDownload", orderId, fileName: "etravel.pdf", now: new Date(log.now()), ip: "2001:db8:85a3:8d3:1319:8a2e:370:7348", ...WINDOWS }, CUSTOMER);
  // A second resend, still waiting for the sender, and a retry scheduled after a failure: the
  // last events of the log are the mails', not the order's.
  const third = order.run({ type: "ResendDocumentMail", orderId, provider: "AWS", to: CUSTOMER_EMAIL, actor: ALICIA }, asStaff(ALICIA));
  const thirdMail = mailOf(log, third);
  thirdMail.queued("ses");
  // Ten minutes after the failure is recorded, as the decider schedules it.
  const retryAt = new Date(Date.parse(log.now()) + 10 * 60_000).toISOString();
  thirdMail.failed("Throttling: maximum sending rate exceeded", 10);
  return { log, retryAt };
};

describe.skipIf(!(await postgresAvailable()))("the histories on an order (ORDER-2, ORDER-3, ORDER-8, ORDER-9, PUBLIC-2)", () => {
  let harness: Harness;
  let oneByOne: Harness;
  let details: OrderDetails;
  const { log, retryAt } = workTheOrder();

  beforeAll(async () => {
    [harness, oneByOne] = await Promise.all([openHarness([orderDetailsProjection]), openHarness([orderDetailsProjection])]);
    await harness.apply(log.events);
    // The same log, one event per batch: a mail's outcome meets its request in another batch.
    await oneByOne.apply(log.events, 1);
    details = (await orderDetails(harness.driver.query, input.orderId))!;
  });
  afterAll(async () => Promise.all([harness?.close(), oneByOne?.close()]));

  it("lists document and reminder mails in order, Remainder Mail 1 only for the reminder (ORDER-2)", () => {
    expect(details.mailHistory.map((mail) => [mail.uploadDoc.mail_service_provider, mail.purpose, mail.remainder_mail, mail.uploadDoc.file1])).toEqual([
      ["AWS", "document", 0, "etravel.pdf"],
      ["Sendgrid", "document", 0, "etravel.pdf"],
      ["AWS", "reminder", 1, "etravel.pdf"],
      ["AWS", "document", 0, "etravel.pdf"],
    ]);
    for (const mail of details.mailHistory) {
      expect(mail).toMatchObject({ order_id: input.orderId, create_ts: expect.stringMatching(/^2025-03-1\dT/), email: CUSTOMER_EMAIL });
      expect(mail.uploadDoc.path).toBe(`docs/${input.orderId}/etravel.pdf`);
    }
  });

  it("ORDER-2, issue 12: each mail's state follows its own stream: provider's reports, failures with their retry, Retry asked", () => {
    const [upload, resend, reminder, third] = details.mailHistory;
    // Delivered, then a complaint; the delivery report after it does not hide the complaint.
    expect(upload).toMatchObject({
      status: "complained",
      transport: "ses",
      attempt: 1,
      reason: null,
      retry_at: null,
      delivered_at: "2025-03-14T17:30:00.000Z",
      requested_by: CARLO.name,
      retry_requested: false,
    });
    expect(upload!.sent_at).toMatch(/^2025-03-14T14:2/);
    // The first attempt failed and was retried; the second was sent and bounced.
    expect(resend).toMatchObject({
      status: "bounced",
      transport: "sendgrid",
      attempt: 2,
      reason: "bounce (5.1.1)",
      retry_at: null,
      delivered_at: "2025-03-15T00:40:00.000Z",
      requested_by: MARIA.name,
    });
    expect(resend!.sent_at).not.toBeNull();
    // Failed for good (no retry_at), then Retry pressed.
    expect(reminder).toMatchObject({ status: "failed", transport: "ses", attempt: 1, reason: "SES throttled the request", retry_at: null, sent_at: null, retry_requested: true });
    // Failed for a passing reason: retrying at the time the decider set.
    expect(third).toMatchObject({ status: "failed", attempt: 1, reason: "Throttling: maximum sending rate exceeded", retry_at: retryAt, retry_requested: false, sent_at: null });
  });

  it("keeps invoices out of Email History but on the order, with their state (unknown: recorded, never answered)", () => {
    expect(details.invoiceHistory).toEqual([
      expect.objectContaining({
        purpose: "invoice",
        remainder_mail: 0,
        status: "unknown",
        transport: "outbox",
        attempt: 1,
        sent_at: null,
        uploadDoc: { mail_service_provider: "AWS", file1: null, path: null },
      }),
    ]);
  });

  it("ORDER-2: a mail's events do not move the order's version (the page's expectedVersion follows the order's stream only)", () => {
    const orderEvents = log.events.filter((p) => p.streamId === orderStream(input.orderId));
    const mailEvents = log.events.filter((p) => p.streamId.startsWith("mail-"));
    expect(mailEvents.length).toBeGreaterThan(10);
    // The log ends with mail events, after the order's last one.
    expect(log.events.at(-1)!.streamId).toMatch(/^mail-/);
    expect(details.version).toBe(orderEvents.length);
    expect(details.version).toBe(Number(orderEvents.at(-1)!.streamPosition));
  });

  it("ORDER-2: a queued mail stays queued in the history until its outcome, then moves, row by row", async () => {
    const lastQueued = log.events.findLastIndex((p) => p.event.type === "MailQueued");
    // Folded up to the third resend's attempt: it is queued, attempt 1, nothing sent yet.
    const partial = await openHarness([orderDetailsProjection]);
    try {
      await partial.apply(log.events.slice(0, lastQueued + 1));
      const before = (await orderDetails(partial.driver.query, input.orderId))!;
      expect(before.mailHistory.at(-1)).toMatchObject({ status: "queued", attempt: 1, transport: "ses", reason: null, retry_at: null });
      expect(before.version).toBe(details.version);
      await partial.apply(log.events.slice(lastQueued + 1));
      expect(await orderDetails(partial.driver.query, input.orderId)).toEqual(details);
    } finally {
      await partial.close();
    }
  });

  it("names the current document, its uploader and the traveller in the upload list (ORDER-3)", () => {
    expect(details.uploadDoc).toEqual([
      {
        file1: "etravel.pdf",
        customer_name: [input.personal.first_name, input.personal.middle_name, input.personal.last_name, input.personal.suffix].filter(Boolean).join(" "),
        path: `docs/${input.orderId}/etravel.pdf`,
        uploaded_by: CARLO.name,
        uploaded_at: expect.stringMatching(/^2025-03-14T/),
      },
    ]);
  });

  it("lists every download with its device, IP and location for staff (ORDER-8)", () => {
    expect(details.downloadHistory).toEqual([
      {
        id: expect.any(String),
        order_id: input.orderId,
        create_ts: expect.any(String),
        ip: "198.51.100.7",
        location: "Philippines",
        timezone: "EST",
        browser: "Chrome",
        os: "Android",
        device: "Android device",
        device_type: "Mobile",
        file: "etravel.pdf",
      },
      expect.objectContaining({ ip: "2001:db8:85a3:8d3:1319:8a2e:370:7348", location: null, browser: "Edge", os: "Windows", device_type: "Desktop" }),
    ]);
  });

  it("answers the public page its downloads, the order's greeting and the file, and nothing about staff (PUBLIC-2)", async () => {
    const answer = (await downloadHistory(harness.driver.query, input.orderId))!;
    expect(answer.path).toEqual({ file1: "etravel.pdf" });
    expect(answer.mainResult).toEqual({
      order_id: input.orderId,
      first_name: input.personal.first_name,
      process_status: "Refund",
      landing_domain: input.landingDomain,
    });
    // The address masked, the country shown (ADR 0020): the reader holds the order's grant.
    expect(answer.data.map((d) => [d.browser, d.os, d.device, d.device_type, d.timezone, d.file, d.ip, d.location])).toEqual([
      ["Chrome", "Android", "Android device", "Mobile", "EST", "etravel.pdf", "198.51.100.xxx", "Philippines"],
      ["Edge", "Windows", "Computer", "Desktop", "EST", "etravel.pdf", "2001:db8:85a3:xxxx", null],
    ]);
    const text = JSON.stringify(answer);
    for (const hidden of [...TEAM.map((s) => s.name), CUSTOMER_EMAIL, input.personal.last_name, "198.51.100.7"]) {
      expect(text).not.toContain(hidden);
    }
  });

  it("answers the public page nothing for an unknown order", async () => {
    expect(await downloadHistory(harness.driver.query, "999999")).toBeUndefined();
  });

  it("lists comments with US Eastern date and time and every flag as Y or N (ORDER-9)", () => {
    expect(details.remark).toEqual([
      {
        id: expect.any(String),
        order_id: input.orderId,
        create_ts: expect.any(String),
        // 13:22:03 UTC on 14 March 2025 is 09:22:03 in New York (daylight saving began on 9 March).
        us_date: "03/14/2025",
        us_time: "09:22:03 AM",
        remark_name: ALICIA.name,
        remark: "Called the customer about the hotel name",
        whatsapp: "Y",
        telephone: "Y",
        status_refund: "N",
        voided: "N",
        chargeback: "N",
        report_error: "N",
      },
      expect.objectContaining({ remark: "Customer asked for the money back", whatsapp: "N", telephone: "N", status_refund: "Y", report_error: "Y" }),
    ]);
    expect(details.remark[0]!.create_ts).toBe("2025-03-14T13:22:03.000Z");
  });

  it("comes out the same whatever the batch size (a rebuild may cut the log anywhere)", async () => {
    expect(await orderDetails(oneByOne.driver.query, input.orderId)).toEqual(details);
    expect(await downloadHistory(oneByOne.driver.query, input.orderId)).toEqual(await downloadHistory(harness.driver.query, input.orderId));
  });
});
