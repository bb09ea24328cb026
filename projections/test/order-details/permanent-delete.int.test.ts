import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import * as Result from "effect/Result";
import { decodeEvent, ERASED, IsoDate, isMailEvent, isOrderEvent, orderStream, type AnyEvent, type OrderId } from "@etd/events";
import type { Query } from "@etd/event-store";
import type { ProjectedEvent } from "../../src/engine/projection.ts";
import { auditTimeline, downloadHistory, orderDetails, orderDetailsProjection, ORDER_DETAIL_TABLES } from "../../src/order-details/index.ts";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import { ALICIA, asStaff, CARLO, createLog, CUSTOMER, demoInputs, mailOf, pick, placeOrder, refOf, TEAM } from "./support/story.ts";

/*
 * Permanent delete (DESIGN §3, §4; QUEUE-8's permanentDeletedFlag): after it, the passport
 * number and the names can no longer be found in any table, while the history stays: the
 * order (Deleted), its mails, downloads, comments and audit lines, without the person.
 *
 * Security review: remark text (staff quote phone and passport numbers) and file names (named
 * after the traveller) go too. One remark is as RemarkAdded version 2 stored it, text in the
 * clear: destroying the key does not hide it, so the delete must blank it.
 */
const REMARK_SECRET = "+63 9171234567";
const OLD_REMARK_SECRET = "P7654321";
// Issue 25: what staff type about the payment, and the device a visitor's User-Agent names, are
// sealed too; one transaction is as version 1 stored it, in the clear.
const TRANSACTION = "ch_9ZZ1q8w";
const MERCHANT = "Quiapo Merchant Ltd";
const OLD_TRANSACTION = "ch_OLD7x2";
const DEVICE = "Pixel 8 Pro Qx";

const IP = "198.51.100.77";
const LOCATION = "Pasig, Metro Manila, PH";

const secretsOf = (o: ReturnType<typeof demoInputs>[number]) =>
  [o.personal.passport_number, o.personal.first_name, o.personal.last_name, o.personal.middle_name, o.personal.email, o.personal.phone_number, IP, LOCATION].filter(
    (value): value is string => value !== undefined && value.length > 0,
  );

// Only a traveller whose names appear nowhere else (the trip, the staff) can be searched for.
const input = pick(demoInputs(), "a traveller with a passport number and names found nowhere else", (o) => {
  const elsewhere = (JSON.stringify(o.application) + TEAM.map((s) => s.name).join(" ")).toLowerCase();
  return o.personal.passport_number !== undefined && !secretsOf(o).some((secret) => elsewhere.includes(secret.toLowerCase()));
});
const SECRETS = [...secretsOf(input), REMARK_SECRET, OLD_REMARK_SECRET, TRANSACTION, MERCHANT, OLD_TRANSACTION, DEVICE];
const FILE = `passport_${input.personal.last_name}.pdf`;

const story = () => {
  const log = createLog("2025-03-14T08:00:00.000Z");
  const order = placeOrder(log, input);
  const orderId: OrderId = order.orderId;
  const to = input.personal.email;
  order.run({ type: "AssignOrder", orderId, assignee: refOf(ALICIA), now: log.now() }, asStaff(ALICIA));
  order.run(
    {
      type: "AddRemark",
      orderId,
      remark: `No answer on ${REMARK_SECRET}, sent a Whatsapp message`,
      remarkerName: ALICIA.name,
      whatsapp: true,
      telephone: true,
      statusRefund: false,
      voided: false,
      chargeBack: false,
      reportError: false,
      today: IsoDate.make("2025-03-14"),
      actor: ALICIA,
    },
    asStaff(ALICIA),
  );
  // A remark stored by the code before the fix, read through the catalogue as every reader does.
  const stored = decodeEvent({
    type: "RemarkAdded",
    schemaVersion: 2,
    data: { orderId, remark: `Passport ${OLD_REMARK_SECRET} checked`, remarkerName: ALICIA.name, whatsapp: false, telephone: false, statusRefund: false, voided: true, chargeBack: false, reportError: false },
    metadata: { actor: asStaff(ALICIA), correlationId: "req-old", occurredAt: log.now() },
  });
  if (Result.isFailure(stored)) throw new Error(stored.failure.message);
  const legacyRemark = log.append(orderStream(orderId), stored.success, asStaff(ALICIA)).eventId;
  const legacy = [legacyRemark];
  const upload = order.run(
    {
      type: "UploadDocument",
      orderId,
      fileName: FILE,
      storedPath: `docs/${orderId}/${FILE}`,
      contentType: "application/pdf",
      sizeBytes: 40_000,
      // Not the assignee: an Admin may work anyone's order (QUEUE-12).
      actor: CARLO,
      provider: "AWS",
      to,
    },
    asStaff(CARLO),
  );
  const uploadMail = mailOf(log, upload);
  uploadMail.queued("ses");
  uploadMail.sent("ses", "ses-1");
  uploadMail.reported("delivered", "ses-delivery-1", log.now());
  order.run({ type: "RecordDownload", orderId, fileName: FILE, now: new Date(log.now()), ip: IP, location: LOCATION, browser: "Safari", os: "iOS", device: DEVICE, deviceType: "Mobile", timezone: "EST" }, CUSTOMER);
  const reminderMail = mailOf(log, order.run({ type: "SendReminderMail", orderId, provider: "Sendgrid", to, actor: ALICIA }, asStaff(ALICIA)));
  reminderMail.queued("sendgrid");
  reminderMail.sent("sendgrid", "sg-1");
  order.run({ type: "ChangeStatus", orderId, to: "Completed", actor: ALICIA, permanentDelete: false }, asStaff(ALICIA));
  const oldTransaction = decodeEvent({
    type: "TransactionDetailsRecorded",
    schemaVersion: 1,
    data: { orderId, transactionId: OLD_TRANSACTION, merchantName: MERCHANT },
    metadata: { actor: asStaff(ALICIA), correlationId: "req-old-2", occurredAt: log.now() },
  });
  if (Result.isFailure(oldTransaction)) throw new Error(oldTransaction.failure.message);
  legacy.push(log.append(orderStream(orderId), oldTransaction.success, asStaff(ALICIA)).eventId);
  order.run({ type: "RecordTransactionDetails", orderId, transactionId: TRANSACTION, merchantName: MERCHANT, actor: ALICIA }, asStaff(ALICIA));
  const beforeDelete = log.events.length;
  log.advance(60 * 24 * 30);
  order.run({ type: "ChangeStatus", orderId, to: "Deleted", actor: CARLO, permanentDelete: true }, asStaff(CARLO));
  // The provider's report arrives after the delete: it moves the mail's state, not its address or file back.
  reminderMail.reported("bounced", "sg-event-1", log.now(), { reason: "550 mailbox unavailable", permanent: true });
  return { log: log.events, beforeDelete, legacy };
};

/** Rows of the projection's tables whose text holds `needle`, per table. */
const findEverywhere = async (query: Query, needle: string): Promise<Record<string, number>> => {
  const found: Record<string, number> = {};
  for (const view of Object.values(ORDER_DETAIL_TABLES)) {
    const [row] = await query(`select count(*)::int as n from ${view} t where position(lower($1) in lower(t::text)) > 0`, [needle]);
    if ((row!.n as number) > 0) found[view] = row!.n as number;
  }
  return found;
};

/**
 * The log as a rebuild reads it once the order's key is destroyed: every sealed personal part
 * erased; the old remark and transaction, never sealed, still in the clear.
 */
const asReadAfterErasure = (events: readonly ProjectedEvent[], legacy: readonly string[]): ProjectedEvent[] =>
  events.map((projected) => {
    const { event } = projected;
    // A mail's events are sealed by its own key, which the delete destroys with the order's.
    const ofOrder = (isOrderEvent(event) || isMailEvent(event)) && event.data.orderId === input.orderId;
    if (!ofOrder || !("personal" in event.data) || legacy.includes(projected.eventId)) return projected;
    return { ...projected, event: { ...event, data: { ...event.data, personal: ERASED } } as AnyEvent };
  });

describe.skipIf(!(await postgresAvailable()))("a permanent delete erases the person from the order detail tables", () => {
  const { log, beforeDelete, legacy } = story();
  let live: Harness;
  let oneByOne: Harness;
  let rebuilt: Harness;
  const before: Record<string, Record<string, number>> = {};

  beforeAll(async () => {
    const open = () => openHarness([orderDetailsProjection]);
    [live, oneByOne, rebuilt] = await Promise.all([open(), open(), open()]);
    await live.apply(log.slice(0, beforeDelete));
    for (const needle of [input.personal.passport_number!, input.personal.email, IP, REMARK_SECRET, OLD_REMARK_SECRET, FILE, TRANSACTION, OLD_TRANSACTION, DEVICE]) {
      before[needle] = await findEverywhere(live.driver.query, needle);
    }
    await live.apply(log.slice(beforeDelete));
    await oneByOne.apply(log, 1);
    await rebuilt.apply(asReadAfterErasure(log, legacy));
  });
  afterAll(async () => Promise.all([live?.close(), oneByOne?.close(), rebuilt?.close()]));

  it("finds the person in the tables before the delete (the search works)", async () => {
    expect(before[input.personal.passport_number!]).toEqual({ order_details: 1 });
    expect(before[input.personal.email]).toEqual({ order_details: 1, mail_history: 2 });
    expect(before[IP]).toEqual({ download_history: 1 });
    expect(before[REMARK_SECRET]).toEqual({ comment_history: 1 });
    expect(before[OLD_REMARK_SECRET]).toEqual({ comment_history: 1 });
    // The audit quotes the file in the upload, the reminder and the download; a mail's own lines never do.
    expect(before[FILE]).toEqual({ order_details: 1, mail_history: 2, download_history: 1, audit_timeline: 3 });
    expect(before[TRANSACTION]).toEqual({ order_details: 1, audit_timeline: 1 });
    expect(before[OLD_TRANSACTION]).toEqual({ audit_timeline: 1 });
    expect(before[DEVICE]).toEqual({ download_history: 1 });
  });

  it("leaves no passport number, name, e-mail, phone, IP, location, remark text or file name in any table afterwards", async () => {
    for (const harness of [live, oneByOne, rebuilt]) {
      for (const secret of [...SECRETS, FILE]) expect(await findEverywhere(harness.driver.query, secret), secret).toEqual({});
    }
  });

  it("keeps the order as Deleted with its trip's closed-set answers, processing fields and the evidence of what happened", async () => {
    const details = (await orderDetails(live.driver.query, input.orderId))!;
    expect(details).toMatchObject({
      ...input.application,
      order_id: input.orderId,
      process_status: "Deleted",
      assign_to: ALICIA.name,
      transaction_id: null,
      merchant_name: null,
      personal_data_erased: true,
    });
    expect(details.first_name).toBeUndefined();
    expect(details.passport_number).toBeUndefined();
    expect(details.owner_currency_declaration_first_name).toBeUndefined();
  });

  it("keeps the histories without the person: mails without address or file, downloads without IP, device or file, comments without text", async () => {
    const details = (await orderDetails(live.driver.query, input.orderId))!;
    expect(details.mailHistory.map((mail) => [mail.purpose, mail.status, mail.email, mail.transport])).toEqual([
      ["document", "delivered", null, "ses"],
      ["reminder", "bounced", null, "sendgrid"],
    ]);
    expect(details.mailHistory.map((mail) => mail.uploadDoc.file1)).toEqual([null, null]);
    expect(details.downloadHistory).toEqual([expect.objectContaining({ ip: null, location: null, browser: null, os: null, device: null, device_type: null, timezone: "EST", file: "" })]);
    expect(details.uploadDoc).toEqual([]);
    expect(details.remark.map((remark) => [remark.remark, remark.remark_name, remark.whatsapp, remark.voided])).toEqual([
      ["", ALICIA.name, "Y", "N"],
      ["", ALICIA.name, "N", "Y"],
    ]);
  });

  it("records the delete in the audit timeline", async () => {
    const { lines } = await auditTimeline(live.driver.query, { orderId: input.orderId });
    expect(lines.slice(-2).map((line) => line.summary)).toEqual([
      "Carlo Mendoza (Admin) deleted the order (soft delete; it was Completed)",
      "Carlo Mendoza (Admin) deleted the order permanently: its personal data is erased, its history kept",
    ]);
  });

  it("no longer answers the public download page (PUBLIC-2)", async () => {
    expect(await downloadHistory(live.driver.query, input.orderId)).toBeUndefined();
  });

  it("gives the same tables live, batch by batch, and rebuilt from the erased log", async () => {
    const liveDetails = await orderDetails(live.driver.query, input.orderId);
    expect(await orderDetails(oneByOne.driver.query, input.orderId)).toEqual(liveDetails);
    expect(await orderDetails(rebuilt.driver.query, input.orderId)).toEqual(liveDetails);
    const liveAudit = await auditTimeline(live.driver.query, { orderId: input.orderId });
    expect(await auditTimeline(rebuilt.driver.query, { orderId: input.orderId })).toEqual(liveAudit);
  });
});
