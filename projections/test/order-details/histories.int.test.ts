import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import { IsoDate, type MailProvider, type MailPurpose } from "@etd/events";
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
  idOf,
  MAIL_REACTOR,
  MARIA,
  pick,
  placeOrder,
  refOf,
  TEAM,
  type StreamRunner,
} from "./support/story.ts";

/*
 * The histories on an order (001 §3 "Related records on an order"): Email History with its
 * Remainder Mail column (ORDER-2), the current document (ORDER-3), Download History for staff
 * (ORDER-8) and for the traveller (PUBLIC-2), and Comment History with its flags (ORDER-9).
 */

const input = pick(demoInputs(), "an arrival by air", (o) => o.application.travel_type === "arrival" && o.application.transportation_type === "air");
const CUSTOMER_EMAIL = input.personal.email;
const ANDROID = { browser: "Chrome", os: "Android", device: "Android device", deviceType: "Mobile", timezone: "EST" };
const WINDOWS = { browser: "Edge", os: "Windows", device: "Computer", deviceType: "Desktop", timezone: "EST" };

/** A day of work on one order, as staff, the mail reactor and the traveller produce it. */
const workTheOrder = () => {
  const log = createLog("2025-03-14T12:30:00.000Z");
  const order: StreamRunner<OrderCommand, OrderState> & { readonly orderId: typeof input.orderId } = placeOrder(log, input);
  const { orderId } = order;
  const mailed = (purpose: MailPurpose, provider: MailProvider, request: string | undefined, fileName?: string) =>
    order.run(
      {
        type: "RecordMailDelivery",
        orderId,
        purpose,
        provider,
        transport: provider === "AWS" ? "outbox" : "sendgrid",
        messageId: `msg-${String(log.events.length)}`,
        ...(fileName === undefined ? {} : { fileName }),
        to: CUSTOMER_EMAIL,
      },
      MAIL_REACTOR,
      request,
    );
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
  mailed("document", "AWS", idOf(upload, "DocumentUploaded"), "etravel.pdf");
  order.run({ type: "ChangeStatus", orderId, to: "Completed", actor: ALICIA, permanentDelete: false }, asStaff(ALICIA));
  log.advance(180);
  order.run({ type: "RecordDownload", orderId, fileName: "etravel.pdf", ip: "198.51.100.7", location: "Quezon City, PH", ...ANDROID }, CUSTOMER);
  log.advance(600);
  // Resent through Sendgrid: the first attempt fails, the retry goes through. The reactor's
  // success names no causation, so it is matched to the open document mail.
  const resend = order.run({ type: "ResendDocumentMail", orderId, provider: "Sendgrid", to: CUSTOMER_EMAIL, actor: MARIA }, asStaff(MARIA));
  order.run(
    { type: "RecordMailFailure", orderId, purpose: "document", provider: "Sendgrid", reason: "421 mailbox busy", attempt: 1, willRetry: true },
    MAIL_REACTOR,
    idOf(resend, "DocumentMailResent"),
  );
  log.advance(5);
  mailed("document", "Sendgrid", undefined, "etravel.pdf");
  log.advance(60);
  const reminder = order.run({ type: "SendReminderMail", orderId, provider: "AWS", to: CUSTOMER_EMAIL, actor: ALICIA }, asStaff(ALICIA));
  order.run(
    { type: "RecordMailFailure", orderId, purpose: "reminder", provider: "AWS", reason: "SES throttled the request", attempt: 1, willRetry: false },
    MAIL_REACTOR,
    idOf(reminder, "ReminderMailSent"),
  );
  const invoice = order.run({ type: "SendInvoice", orderId, provider: "AWS" }, asStaff(MARIA));
  mailed("invoice", "AWS", idOf(invoice, "InvoiceSent"));
  log.advance(30);
  remark("Customer asked for the money back", { statusRefund: true, reportError: true });
  log.advance(24 * 60);
  order.run({ type: "RecordDownload", orderId, fileName: "etravel.pdf", ip: "2001:db8:85a3:8d3:1319:8a2e:370:7348", ...WINDOWS }, CUSTOMER);
  return log;
};

describe.skipIf(!(await postgresAvailable()))("the histories on an order (ORDER-2, ORDER-3, ORDER-8, ORDER-9, PUBLIC-2)", () => {
  let harness: Harness;
  let oneByOne: Harness;
  let details: OrderDetails;
  const log = workTheOrder();

  beforeAll(async () => {
    [harness, oneByOne] = await Promise.all([openHarness([orderDetailsProjection]), openHarness([orderDetailsProjection])]);
    await harness.apply(log.events);
    // The same log, one event per batch: a mail's outcome meets its request in another batch.
    await oneByOne.apply(log.events, 1);
    details = (await orderDetails(harness.driver.query, input.orderId))!;
  });
  afterAll(async () => Promise.all([harness?.close(), oneByOne?.close()]));

  it("lists document and reminder mails in order, Remainder Mail 1 only for the reminder (ORDER-2)", () => {
    expect(
      details.mailHistory.map((mail) => [mail.uploadDoc.mail_service_provider, mail.purpose, mail.remainder_mail, mail.uploadDoc.file1, mail.status]),
    ).toEqual([
      ["AWS", "document", 0, "etravel.pdf", "sent"],
      ["Sendgrid", "document", 0, "etravel.pdf", "sent"],
      ["AWS", "reminder", 1, "etravel.pdf", "failed"],
    ]);
    for (const mail of details.mailHistory) {
      expect(mail).toMatchObject({ order_id: input.orderId, create_ts: expect.stringMatching(/^2025-03-1\dT/), email: CUSTOMER_EMAIL });
      expect(mail.uploadDoc.path).toBe(`docs/${input.orderId}/etravel.pdf`);
    }
  });

  it("says how each mail went: the adapter that sent it, the attempts and the provider's reason (DESIGN §8)", () => {
    const [upload, resend, reminder] = details.mailHistory;
    expect(upload).toMatchObject({ transport: "outbox", attempt: 1, reason: null, requested_by: CARLO.name, sent_at: expect.any(String) });
    expect(resend).toMatchObject({ transport: "sendgrid", attempt: 2, reason: "421 mailbox busy", requested_by: MARIA.name, status: "sent" });
    expect(reminder).toMatchObject({ transport: null, attempt: 1, reason: "SES throttled the request", will_retry: false, sent_at: null });
  });

  it("keeps invoices out of Email History but on the order", () => {
    expect(details.invoiceHistory).toEqual([
      expect.objectContaining({ purpose: "invoice", remainder_mail: 0, status: "sent", uploadDoc: { mail_service_provider: "AWS", file1: null, path: null } }),
    ]);
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
        location: "Quezon City, PH",
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
    expect(answer.data.map((d) => [d.browser, d.os, d.device, d.device_type, d.timezone, d.file, d.ip])).toEqual([
      ["Chrome", "Android", "Android device", "Mobile", "EST", "etravel.pdf", "198.51.100.xxx"],
      ["Edge", "Windows", "Computer", "Desktop", "EST", "etravel.pdf", "2001:db8:85a3:xxxx"],
    ]);
    const text = JSON.stringify(answer);
    for (const hidden of [...TEAM.map((s) => s.name), CUSTOMER_EMAIL, input.personal.last_name, "Quezon City", "198.51.100.7"]) {
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
