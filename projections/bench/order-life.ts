import type { EventMetadata, IsoDate, IsoDateTime, MailProvider, OrderStatus } from "@etd/events";
import { orderStream } from "@etd/events";
import { orderDecider, type OrderCommand, type OrderState, type PlaceOrderInput } from "@etd/write";
import type { Seeded } from "./seeded.ts";
import { staffMetadata, systemMetadata, type Member, type Roster, type StreamWork } from "./staff-roster.ts";
import { streamDraft, type Budget, type PlannedAppend } from "./stream-draft.ts";

/*
 * One order's life as a busy back office lives it (DESIGN §4): most orders are assigned, remarked
 * on, moved through the folders, get their document uploaded (a mail asked for) and then downloaded;
 * some wait, some are sent back to intake, refunded, charged back, deleted and restored, and a
 * few are permanently deleted (their key destroyed first, as the API does). Every step is a real
 * command decided on the state folded so far, so the stream is one the write side could have
 * written. What then happens to each mail lives in the mail's own stream (`mail-{mailId}`,
 * DESIGN §8), which this plan of order streams does not write.
 */

const DAY = 86_400_000;
const MINUTE = 60_000;

const PROCESSING: readonly OrderStatus[] = ["Awaiting", "AwaitingGovt", "ContactCustomer", "CustomerCalled"];
const WORKERS = ["Team", "Night Staff", "Manager"] as const;

const REMARKS = [
  "Checked the passport scan against the application.",
  "Asked the customer for a clearer photo.",
  "Customer confirmed the flight number by phone.",
  "Submitted to the portal; waiting for the QR code.",
  "Arrival date corrected after a call with the customer.",
  "Phone number on file does not answer; will try again.",
  "Customer wrote on WhatsApp asking about the status.",
  "Duplicate of another order by the same traveller?",
];

const BROWSERS = [
  { browser: "Chrome 126", os: "Android 14", device: "Samsung SM-S911B", deviceType: "mobile" },
  { browser: "Safari 17", os: "iOS 17.5", device: "iPhone", deviceType: "mobile" },
  { browser: "Chrome 126", os: "Windows 10", device: "PC", deviceType: "desktop" },
  { browser: "Edge 125", os: "Windows 11", device: "PC", deviceType: "desktop" },
  { browser: "Safari 17", os: "macOS 14", device: "Mac", deviceType: "desktop" },
];
const PLACES = [
  ["Manila, PH", "Asia/Manila"],
  ["Cebu City, PH", "Asia/Manila"],
  ["Dubai, AE", "Asia/Dubai"],
  ["Los Angeles, US", "America/Los_Angeles"],
  ["Toronto, CA", "America/Toronto"],
  ["Sydney, AU", "Australia/Sydney"],
] as const;

/** The order's stream as appends: one, or two around the key's destruction for a permanent delete. */
export const planOrderLife = (input: PlaceOrderInput, now: Date, roster: Roster, random: Seeded, budget: Budget): StreamWork => {
  const streamId = orderStream(input.orderId);
  const order = streamDraft(orderDecider, streamId, budget, random);
  const { orderId } = input;
  let clock = Date.parse(input.createdAt);
  const at = (minMinutes: number, maxMinutes: number): string => {
    clock += random.int(minMinutes * MINUTE, maxMinutes * MINUTE);
    return new Date(clock).toISOString();
  };
  const state = (): OrderState => order.state;
  const email = (): string => {
    const current = state();
    return current.exists && current.email !== undefined ? current.email : `${orderId}@example.com`;
  };
  const by = (member: Member, command: OrderCommand, when = at(2, 90)) => order.step(command, staffMetadata(member, when, random));
  /** A traveller's command at its own moment, which the command is told (`now`). */
  const customer = (command: (now: Date) => OrderCommand): boolean => {
    const occurredAt = at(30, 3 * 24 * 60) as IsoDateTime;
    const metadata: EventMetadata = { actor: { kind: "customer" }, correlationId: `pub-${random.hex(16)}`, occurredAt };
    return order.step(command(new Date(occurredAt)), metadata);
  };
  const remark = (member: Member, text: string, flags: { statusRefund?: boolean; chargeBack?: boolean } = {}) =>
    by(member, {
      type: "AddRemark",
      orderId,
      remark: text,
      remarkerName: member.name,
      whatsapp: random.chance(0.2),
      telephone: random.chance(0.25),
      statusRefund: flags.statusRefund ?? false,
      voided: random.chance(0.02),
      chargeBack: flags.chargeBack ?? false,
      reportError: random.chance(0.01),
      today: new Date(clock).toISOString().slice(0, 10) as IsoDate,
      actor: member,
    });
  const move = (member: Member, to: OrderStatus) => by(member, { type: "ChangeStatus", orderId, to, actor: member, permanentDelete: false });
  order.step({ type: "PlaceOrder", ...input }, systemMetadata("order-intake", input.createdAt, random));
  const life = () => {
    const future = input.processingDate > now.toISOString().slice(0, 10);
    const ageDays = (now.getTime() - Date.parse(input.createdAt)) / DAY;
    // Waiting in New, Priority or Future (most recent orders, few old ones); a telecaller
    // sometimes notes a call about it.
    if (random.chance(future ? 0.85 : ageDays < 2 ? 0.6 : 0.04)) {
      if (random.chance(0.15)) remark(roster.pick(["Telecaller"]), random.pick(REMARKS));
      return;
    }
    let agent = roster.pick(WORKERS);
    by(agent, { type: "AssignOrder", orderId, assignee: agent, now: new Date(clock).toISOString() }, at(5, 600));
    if (random.chance(0.12)) return; // Pending in someone's My Orders
    if (random.chance(0.07)) {
      // Handed back to intake, usually picked up again by someone else.
      const manager = roster.pick(["Manager"]);
      by(manager, { type: "MoveOrderToOriginalFolder", orderId, actor: manager });
      if (random.chance(0.4)) return;
      agent = roster.pick(WORKERS);
      by(agent, { type: "AssignOrder", orderId, assignee: agent, now: new Date(clock).toISOString() }, at(5, 600));
    }
    const remarks = random.weighted([
      [0, 30],
      [1, 40],
      [2, 20],
      [3, 10],
    ] as const);
    // Once assigned, the order is read-only for other staff below Manager (QUEUE-12): the
    // assignee or a manager writes the remarks.
    for (let i = 0; i < remarks; i++) remark(random.chance(0.8) ? agent : roster.pick(["Manager"]), random.pick(REMARKS));

    const path = random.weighted([
      ["processing", 25],
      ["completed", 62],
      ["deleted", 8],
      ["waiting", 5],
    ] as const);
    if (path === "waiting") return;
    if (path === "deleted") {
      // Deleting is a Manager's or an Admin's (QUEUE-8).
      move(roster.pick(["Manager", "Admin"]), "Deleted");
      if (random.chance(0.2)) {
        move(roster.pick(["Manager"]), "Pending"); // restored
        return;
      }
      if (random.chance(0.15)) permanentDelete();
      return;
    }
    if (path === "processing") {
      move(agent, random.pick(PROCESSING));
      if (random.chance(0.5)) return; // still there
      if (random.chance(0.3)) move(agent, random.pick(PROCESSING.filter((s) => s !== currentStatus())));
    }
    complete(agent);
  };

  const currentStatus = (): OrderStatus | undefined => {
    const current = state();
    return current.exists ? current.status : undefined;
  };

  const complete = (agent: Member) => {
    const provider: MailProvider = random.chance(0.7) ? "AWS" : "Sendgrid";
    const fileName = `etravel-${orderId}.${random.chance(0.9) ? "pdf" : "jpg"}`;
    by(agent, {
      type: "UploadDocument",
      orderId,
      fileName,
      storedPath: `docs/${orderId}/${fileName}`,
      contentType: fileName.endsWith(".pdf") ? "application/pdf" : "image/jpeg",
      sizeBytes: random.int(80_000, 900_000),
      actor: agent,
      provider,
      to: email(),
    });
    move(agent, "Completed");
    const downloads = random.weighted([
      [0, 35],
      [1, 40],
      [2, 15],
      [3, 10],
    ] as const);
    for (let i = 0; i < downloads; i++) {
      const device = random.pick(BROWSERS);
      const [location, timezone] = random.pick(PLACES);
      customer((now) => ({
        type: "RecordDownload",
        orderId,
        fileName,
        now,
        ip: `${random.int(1, 223)}.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(1, 254)}`,
        location,
        timezone,
        ...device,
      }));
    }
    if (downloads === 0 && random.chance(0.3)) {
      by(agent, { type: "SendReminderMail", orderId, provider, to: email(), actor: agent }, at(24 * 60, 3 * 24 * 60));
    }
    if (random.chance(0.05)) {
      by(agent, { type: "ResendDocumentMail", orderId, provider, to: email(), actor: agent });
    }
    const current = state();
    const paid = current.exists ? current.payment : undefined;
    if (paid !== undefined && random.chance(0.08)) {
      // The order's invoice (ADMIN-6): numbered once; the plan uses the order id as its number.
      const issuedAt = new Date(clock).toISOString() as IsoDateTime;
      const invoice = { number: `${issuedAt.slice(0, 4)}-${orderId.padStart(6, "0")}`, issuedAt, gatewayName: "Stripe", ...paid };
      by(roster.pick(["Manager", "Admin"]), { type: "SendInvoice", orderId, provider, invoice });
    }
    const dispute = random.weighted([
      ["none", 90],
      ["refund", 6],
      ["chargeback", 3],
      ["erase", 1],
    ] as const);
    clock += random.int(1, 20) * DAY;
    if (dispute === "refund") {
      remark(random.chance(0.7) ? agent : roster.pick(["Manager"]), "Customer asked for a refund: travel cancelled.", { statusRefund: true });
      if (random.chance(0.6)) {
        const refunder = roster.pick(["Manager", "Admin"]);
        by(refunder, { type: "MarkOrderRefunded", orderId, actor: refunder });
      }
    } else if (dispute === "chargeback") {
      const manager = roster.pick(["Manager"]);
      remark(manager, "Bank notified a chargeback on this payment.", { chargeBack: true });
      by(manager, { type: "RecordTransactionDetails", orderId, transactionId: `ch_${random.hex(20)}`, merchantName: "eTravel Services", actor: manager });
      // The API records a pack as the member who asked for it (get-defence-pack-pdf).
      for (const packType of [1, 2] as const) {
        by(manager, { type: "RecordDefencePack", orderId, packType, fileName: `defence-pack-${packType}-${orderId}.pdf`, storedPath: `packs/${orderId}/defence-pack-${packType}.pdf`, actor: manager });
      }
    } else if (dispute === "erase") {
      permanentDelete();
    }
  };

  // The API destroys the key before appending the delete (see EncryptingEventStore.forget): the
  // events so far go in one append, the key goes, then the delete is appended.
  const appends: PlannedAppend[] = [];
  let erased = false;
  const permanentDelete = () => {
    const before = order.take();
    if (before) appends.push(before);
    const admin = roster.pick(["Admin"]);
    erased = order.step({ type: "ChangeStatus", orderId, to: "Deleted", actor: admin, permanentDelete: true }, staffMetadata(admin, at(60, 7 * 24 * 60), random));
  };

  life();
  const last = order.take({ forgetFirst: erased });
  if (last) appends.push(last);
  return { streamId, appends };
};
