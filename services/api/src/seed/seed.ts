import { randomBytes, randomUUID } from "node:crypto";
import * as Result from "effect/Result";
import { BRANDS } from "@etd/contract";
import { encodeEvent, mailStream, orderStream, type EventId, type IsoDateTime, type MailEvent, type GatewayId, type MailProvider, type MailPurpose, type OrderId, type OrderStatus, type Role, type StaffId } from "@etd/events";
import { decodePlaceOrderRequest, isRefusal, mailDecider, type ActingStaff, type MailCommand, type OrderCommand, type PlaceOrderInput, type UploadDocument } from "@etd/write";
import { DEMO_MAIL_RETRY_DELAYS_MS, DEMO_REMINDER_AFTER_HOURS, demoDocumentStory, generateDemoOrders, seededRandom, type DemoDocumentStory, type DemoMail, type DemoMailStep, type SeededRandom } from "@etd/demo";
import { composeMail } from "@etd/documents";
import { utcDay } from "../http/fields.ts";
import type { ApiDeps, Caller } from "../api-deps.ts";
import { runGatewayCommand, runOrderCommand, runServiceLevelCommand, type Ran } from "../commands/run-command.ts";
import { addStaffAccount, isAccountChanged, setStaffCapacity } from "../commands/staff-accounts.ts";
import { documentKey } from "../uploads/document-key.ts";
import { demoDocumentPdf, demoDocumentPng } from "./demo-document.ts";

/*
 * What a fresh installation starts with. Demo mode: one staff member per role, the payment
 * gateways, and about 2,000 orders with a realistic spread of work already done on them over the
 * last 60 days, all written through the same deciders as real commands. Otherwise: only the
 * first admin named in the environment. The order bodies come from @etd/demo.
 */

export const DEMO_STAFF: readonly { name: string; email: string; role: Role }[] = [
  { name: "Alicia Ramos", email: "admin@demo.local", role: "Admin" },
  { name: "Marco Villanueva", email: "manager@demo.local", role: "Manager" },
  { name: "Tessa Cruz", email: "team@demo.local", role: "Team" },
  { name: "Carlo Mendoza", email: "telecaller@demo.local", role: "Telecaller" },
  { name: "Nina Bautista", email: "night@demo.local", role: "Night Staff" },
];

/**
 * Who works the demo's orders (issue 27: members with different loads): of every eight orders
 * worked, the Team member takes three, Night Staff two, the others one each.
 */
const WORKERS_BY_SHARE: readonly Role[] = ["Team", "Night Staff", "Team", "Telecaller", "Team", "Manager", "Night Staff", "Admin"];

/** Most open orders per member (issue 27, Take next): the Telecaller's small one is reached in the demo. */
const DEMO_CAPACITY: Partial<Record<Role, number>> = { Team: 40, "Night Staff": 20, Telecaller: 2 };

/**
 * The service levels (issue 27, ADR 0036): the policy set up with the team, then tightened two
 * weeks ago, so older orders say version 1 and newer ones version 2.
 */
const DEMO_POLICIES = {
  first: { standard: 24 * 60, priority: 4 * 60, future: 24 * 60 },
  tightened: { standard: 12 * 60, priority: 3 * 60, future: 12 * 60 },
  tightenedDaysAgo: 14,
} as const;

const DEMO_GATEWAYS = [
  { gatewayId: "stripe", gatewayName: "Stripe" },
  { gatewayId: "paypal", gatewayName: "PayPal" },
  { gatewayId: "authorize-net", gatewayName: "Authorize.Net" },
  { gatewayId: "checkout-com", gatewayName: "Checkout.com" },
] as const;

const system = (requestId: string): Caller => ({ user: undefined, requestId, ip: "127.0.0.1" });

const mustSucceed = (ran: Ran, what: string) => {
  if (!ran.ok) throw new Error(`Seeding failed at ${what}: ${ran.refusal.message}`);
};

/** A new password for the demo staff when DEMO_PASSWORD is unset: readable, 16 characters. */
export const generatePassword = (): string => randomBytes(12).toString("base64url");

export const createFirstAdmin = async (deps: ApiDeps, admin: { email: string; password: string; name: string }) => {
  const added = await addStaffAccount(deps, system("first-admin"), { ...admin, role: "Admin" }, "setup");
  if (!isAccountChanged(added)) throw new Error(`Could not create the first admin: ${added.body.message}`);
};

export interface DemoOptions {
  readonly password: string;
  readonly seed?: number;
  readonly orderCount?: number;
  /** The end of the demo's history (default: the server's clock as seeding starts). */
  readonly now?: Date;
  /** PUBLIC_URL: the link in the demo's mails, as the mail reactor writes it (default http://localhost:3000). */
  readonly publicUrl?: string;
  /** REMINDER_AFTER_HOURS: when a document nobody downloaded was reminded (default 24). */
  readonly reminderAfterHours?: number;
}

/** What the demo's mails were sent with: the seed of their stories, the link, the reminder time. */
interface DemoMailSettings {
  readonly seed: number;
  readonly publicUrl: string;
  readonly reminderAfterHours: number;
}

/** How far back the demo's history goes: orders were placed over the last 60 days. */
export const DEMO_HISTORY_DAYS = 60;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The deps as of a moment of the demo's history: every command run with them is decided, and its
 * events stamped, at that moment (a historical import). Everything else is the server's own.
 */
const asOf = (deps: ApiDeps, at: Date): ApiDeps => ({ ...deps, now: () => at });

/**
 * Seeds the demo as a historical import: the orders were placed over the last 60 days, and each
 * one's work happened in time after it (assigned minutes or hours after it fell due, a remark, the
 * document uploaded, the status moved, a refund or chargeback days later). Every command is
 * decided as of its own moment, so a refund date is the day it was asked for and an assignment's
 * "today" is that day; staff and gateways were set up before the first order. Work that would
 * fall after `now` has not happened yet: recent orders are still untouched or half done.
 */
export const seedDemo = async (deps: ApiDeps, options: DemoOptions): Promise<{ orders: number }> => {
  const now = options.now ?? deps.now();
  const seed = options.seed ?? 2026;
  const bodies = generateDemoOrders({ seed, count: options.orderCount ?? 2000, now, spanDays: DEMO_HISTORY_DAYS });
  const orders = bodies.map((body) => {
    const decoded = decodePlaceOrderRequest(body);
    if (Result.isFailure(decoded)) throw new Error(`Demo order does not decode: ${JSON.stringify(decoded.failure.errors)}`);
    return decoded.success;
  });
  const firstOrder = orders.length > 0 ? Date.parse(orders[0]!.createdAt) : now.getTime();
  const setUp = asOf(deps, new Date(Math.min(firstOrder, now.getTime() - DEMO_HISTORY_DAYS * DAY) - HOUR));

  const staff: { id: StaffId; name: string; type: Role }[] = [];
  for (const member of DEMO_STAFF) {
    const added = await addStaffAccount(setUp, system("demo-staff"), { ...member, password: options.password }, "demo-data");
    if (!isAccountChanged(added)) throw new Error(`Could not add demo staff ${member.email}: ${added.body.message}`);
    staff.push({ id: added.staffId, name: member.name, type: member.role });
  }

  const admin = staff.find((member) => member.type === "Admin")!;
  const byAdmin = (requestId: string): Caller => ({ user: admin, requestId, ip: "127.0.0.1" });
  for (const member of staff) {
    const capacity = DEMO_CAPACITY[member.type];
    if (capacity === undefined) continue;
    const set = await setStaffCapacity(setUp, byAdmin("demo-capacity"), member.id, capacity);
    if (!isAccountChanged(set)) throw new Error(`Could not set the capacity of ${member.name}: ${set.body.message}`);
  }
  mustSucceed(await runServiceLevelCommand(setUp, system("demo-service-levels"), { type: "SetServiceLevelPolicy", allowedMinutes: DEMO_POLICIES.first, actor: { system: "demo-data" } }, "demo-data"), "the first service levels");
  const tightenedAt = now.getTime() - DEMO_POLICIES.tightenedDaysAgo * DAY;
  let tightened = false;

  for (const gateway of DEMO_GATEWAYS) {
    mustSucceed(await runGatewayCommand(setUp, system("demo-gateways"), { type: "RegisterGateway", gatewayId: gateway.gatewayId as GatewayId, gatewayName: gateway.gatewayName }, "demo-data"), gateway.gatewayName);
  }
  for (const [gatewayId, domain] of [["stripe", "primary"], ["paypal", "secondary"]] as const) {
    mustSucceed(
      await runGatewayCommand(setUp, system("demo-gateways"), { type: "SelectGateway", gatewayId: gatewayId as GatewayId, domain }, "demo-data"),
      `selecting ${gatewayId}`,
    );
  }

  const mailSettings: DemoMailSettings = {
    seed,
    publicUrl: options.publicUrl ?? "http://localhost:3000",
    reminderAfterHours: options.reminderAfterHours ?? DEMO_REMINDER_AFTER_HOURS,
  };
  // Its own sequence, so the order bodies stay those of the seed alone.
  const random = seededRandom(seed ^ 0x5eed_71e);
  for (const [index, order] of orders.entries()) {
    const placedAt = new Date(Date.parse(order.createdAt));
    if (!tightened && placedAt.getTime() >= tightenedAt) {
      // In the log where it happened: after the orders placed before it, before those after.
      const at = asOf(deps, new Date(tightenedAt));
      mustSucceed(
        await runServiceLevelCommand(at, byAdmin("demo-service-levels"), { type: "SetServiceLevelPolicy", allowedMinutes: DEMO_POLICIES.tightened, actor: { id: admin.id, name: admin.name, role: admin.type } }),
        "the tightened service levels",
      );
      tightened = true;
    }
    mustSucceed(await runOrderCommand(asOf(deps, placedAt), system(`demo-order-${order.orderId}`), { type: "PlaceOrder", ...order }, "order-intake"), `order ${order.orderId}`);
    await work(deps, order, index, staff, now, random, mailSettings);
  }
  return { orders: orders.length };
};

/** A gap between two steps of an order's work, drawn evenly from `min` to `max` milliseconds. */
type Gap = readonly [min: number, max: number];

/**
 * Work already done on demo order number `index`, so every folder has something in it: most
 * recent orders are untouched (New, Priority, Future), older ones were assigned and moved on.
 */
const work = async (
  deps: ApiDeps,
  order: PlaceOrderInput,
  index: number,
  staff: readonly { id: StaffId; name: string; type: Role }[],
  now: Date,
  random: SeededRandom,
  settings: DemoMailSettings,
) => {
  const { seed } = settings;
  const roll = (index * 7919 + 13) % 100;
  // Staff take an order up once it is due: the day it was placed, or its later processing day.
  let clock = Math.max(Date.parse(order.createdAt), Date.parse(`${order.processingDate}T00:00:00Z`));
  const outcome = outcomeOf(roll, now.getTime() - clock);
  if (outcome.kind === "untouched") return;
  const { orderId } = order;
  const member = staff.find((m) => m.type === WORKERS_BY_SHARE[index % WORKERS_BY_SHARE.length])!;
  const caller: Caller = { user: member, requestId: `demo-work-${orderId}`, ip: "127.0.0.1" };
  // One member works the order from assignment on, so QUEUE-12's read-only rule never stops them.
  const actor: ActingStaff = { id: member.id, name: member.name, role: member.type };

  const draw = (from: number, gap: Gap) => from + gap[0] + Math.floor(random.next() * (gap[1] - gap[0]));
  /** Runs a command as of `when`: by the member, or by the overseer for a status change only they may make. */
  const run = async (when: Date, command: OrderCommand, by: Caller = caller) => {
    const as = command.type === "ChangeStatus" && command.actor.id !== member.id ? { ...caller, user: overseer } : by;
    mustSucceed(await runOrderCommand(asOf(deps, when), as, command), `${command.type} on ${orderId}`);
  };
  /** Runs the next step `gap` after the last one, as of then; false when that moment is still to come. */
  const step = async (gap: Gap, command: (at: Date) => OrderCommand | Promise<OrderCommand>): Promise<boolean> => {
    const at = draw(clock, gap);
    if (at > now.getTime()) return false;
    clock = at;
    const when = new Date(at);
    await run(when, await command(when));
    return true;
  };
  const remark = (text: string, flags: { statusRefund?: boolean; chargeBack?: boolean; whatsapp?: boolean; telephone?: boolean }) => (at: Date): OrderCommand => ({
    type: "AddRemark",
    orderId,
    remark: text,
    remarkerName: member.name,
    actor,
    whatsapp: flags.whatsapp ?? false,
    telephone: flags.telephone ?? false,
    statusRefund: flags.statusRefund ?? false,
    voided: false,
    chargeBack: flags.chargeBack ?? false,
    reportError: false,
    // The refund date a Refund flag sets: the day the remark was made.
    today: utcDay(at),
  });
  // Deleting is a Manager's or an Admin's (QUEUE-8): the first of them on the roster deletes.
  const overseer = staff.find((m) => m.type === "Manager" || m.type === "Admin") ?? member;
  const deleter: ActingStaff = { id: overseer.id, name: overseer.name, role: overseer.type };
  const moveTo = (to: OrderStatus) => (): OrderCommand => ({ type: "ChangeStatus", orderId, to, actor: to === "Deleted" ? deleter : actor, permanentDelete: false });

  const assignWithin: Gap = order.processingMode === "priority" ? [5 * MINUTE, 45 * MINUTE] : [15 * MINUTE, 6 * HOUR];
  if (!(await step(assignWithin, (at) => ({ type: "AssignOrder", orderId, assignee: { id: member.id, name: member.name }, now: at.toISOString() })))) return;
  if (outcome.kind === "pending") return; // Pending in someone's My Orders
  const { to, pausedIn } = outcome;
  if (!(await step([5 * MINUTE, 3 * HOUR], remark(REMARKS[pausedIn ?? to] ?? "Checked.", { whatsapp: roll % 3 === 0, telephone: roll % 4 === 0 })))) return;
  if (pausedIn !== undefined) {
    // It waited on others (its clock paused, ADR 0036), then came back to be finished.
    if (!(await step([MINUTE, 20 * MINUTE], moveTo(pausedIn)))) return;
    if (!(await step([2 * HOUR, 2 * DAY], moveTo("Pending")))) return;
  }
  let story: DemoDocumentStory | undefined;
  /** The document's name as stored (a name already taken gets a suffix), which downloads name. */
  let fileName = "";
  if (to === "Completed") {
    const home = { country: order.personal.permanent_country_of_residence };
    const uploaded = await step([10 * MINUTE, 20 * HOUR], async (at) => {
      story = demoDocumentStory({ seed, orderId, uploadedAt: at, now, home, reminderAfterHours: settings.reminderAfterHours });
      const upload = await uploadDocument(deps, order, actor, at, story);
      fileName = upload.fileName;
      return upload;
    });
    if (!uploaded || story === undefined) return;
    // The upload asked for the mail; the mail reactor sent it seconds later (recorded, never sent now).
    await recordMail(deps, settings, order, await lastEventId(deps, orderId, "DocumentUploaded"), "document", story.provider, story.mail);
  }
  if (!(await step([MINUTE, 20 * MINUTE], moveTo(to)))) return;

  // What followed, in time order so the order's stream stays in time order: a refund or a
  // chargeback days later, and the traveller's downloads and the reminder to download.
  const later: { readonly at: number; readonly run: (at: Date) => Promise<void> }[] = [];
  if (roll === 96 || roll === 97) {
    const asked = draw(clock, [DAY, 12 * DAY]);
    later.push({ at: asked, run: async (at) => run(at, remark("Customer asked for a refund: travel cancelled.", { statusRefund: true, telephone: true })(at)) });
    if (roll === 97) later.push({ at: draw(asked, [DAY, 5 * DAY]), run: (at) => run(at, { type: "MarkOrderRefunded", orderId, actor }) });
  } else if (roll >= 98) {
    later.push({ at: draw(clock, [3 * DAY, 20 * DAY]), run: async (at) => run(at, remark("Bank notified a chargeback on this payment.", { chargeBack: true })(at)) });
  }
  if (story !== undefined) {
    const { provider, reminder } = story;
    if (reminder !== undefined) {
      later.push({
        at: reminder.at.getTime(),
        run: async (at) => {
          // Nobody downloaded it in time: the mail schedule reminded the customer, then the reactor sent it.
          const reminded = await runOrderCommand(asOf(deps, at), system(`reminder-${orderId}`), { type: "SendAutomaticReminder", orderId, reminderAfterMs: settings.reminderAfterHours * HOUR, now: at }, "reminders");
          mustSucceed(reminded, `the reminder of ${orderId}`);
          await recordMail(deps, settings, order, await lastEventId(deps, orderId, "ReminderMailSent"), "reminder", provider, reminder.mail);
        },
      });
    }
    const completedAt = clock;
    for (const download of story.downloads) {
      const { at: _at, ip, location, ...device } = download;
      later.push({
        // Never before the order shows as completed, which the first download may otherwise precede by seconds.
        at: Math.max(download.at.getTime(), completedAt + SECOND),
        run: (at) => run(at, { type: "RecordDownload", orderId, fileName, now: at, ip, location, ...device }, { user: undefined, requestId: `demo-download-${orderId}`, ip }),
      });
    }
  }
  for (const next of later.sort((a, b) => a.at - b.at)) {
    if (next.at > now.getTime()) break;
    await next.run(new Date(next.at));
  }
};

/** The id of the order's last event, which must be of `type`: a mail's id is the event that asked for it. */
const lastEventId = async (deps: ApiDeps, orderId: OrderId, type: string): Promise<EventId> => {
  const last = (await deps.store.readStream(orderStream(orderId))).at(-1);
  if (last?.type !== type) throw new Error(`Seeding failed: order ${orderId} does not end with ${type}`);
  return last.eventId as EventId;
};

/**
 * Records what the mail reactor and the provider's reports did with one mail, as of when each
 * happened, through the mail's decider: queued, sent (the provider's id), then delivered or
 * bounced, or failed for good. Nothing is sent now: the reactor skips a mail that has an outcome.
 */
const recordMail = async (deps: ApiDeps, settings: DemoMailSettings, order: PlaceOrderInput, mailId: EventId, purpose: MailPurpose, provider: MailProvider, mail: DemoMail) => {
  const { orderId } = order;
  const { transport } = mail;
  const brand = BRANDS[order.landingDomain];
  // The reactor's own template, so View Email Content shows what such a mail says.
  const composed = composeMail({
    purpose,
    landingDomain: order.landingDomain,
    orderId,
    customerName: [order.personal.first_name, order.personal.last_name].filter(Boolean).join(" "),
    trackUrl: `${settings.publicUrl}/track-order/${orderId}`,
  });
  // Who recorded each step, as live: the mail reactor ("mail") its attempts, the provider's
  // webhook (named by its transport) the reports, so the audit lines read as a real mail's do.
  const metadataOf = (step: DemoMailStep) =>
    step.type === "delivered" || step.type === "bounced"
      ? ({ actor: { kind: "system", name: transport }, correlationId: `demo-report-${step.providerEventId}` } as const)
      : ({ actor: { kind: "system", name: "mail" }, correlationId: mailId, causationId: mailId } as const);
  // Each step decided by the mail's decider on the state the steps before it left, as the reactor's
  // and the webhooks' commands would be; only the writing is gathered into one append.
  let state = mailDecider.initialState;
  const recorded: MailEvent[] = [];
  for (const step of mail.steps) {
    const command: MailCommand = (() => {
      switch (step.type) {
        case "queued":
          return {
            type: "QueueMail",
            mailId,
            orderId,
            purpose,
            provider,
            transport,
            messageId: `<${mailId}.${step.attempt}@${brand.mailDomain}>`,
            template: composed.template,
            from: `${brand.name} <no-reply@${brand.mailDomain}>`,
            content: { to: order.personal.email, subject: composed.subject, text: composed.text, html: composed.html },
            now: step.at,
          };
        case "sent":
          return { type: "RecordMailSent", mailId, attempt: step.attempt, transport, providerMessageId: step.providerMessageId };
        case "failed":
          return { type: "RecordMailFailure", mailId, attempt: step.attempt, reason: step.reason, permanent: step.permanent, retryDelaysMs: DEMO_MAIL_RETRY_DELAYS_MS, now: step.at };
        case "delivered":
        case "bounced":
          return {
            type: "RecordDeliveryReport",
            mailId,
            orderId,
            transport,
            outcome: step.type,
            providerEventId: step.providerEventId,
            reportedAt: step.at.toISOString(),
            ...(step.type === "bounced" ? { permanent: true, reason: step.reason } : {}),
          };
      }
    })();
    const decision = mailDecider.decide(command, state);
    if (isRefusal(decision)) throw new Error(`Seeding failed at ${command.type} for mail ${mailId} of order ${orderId}: ${decision.message}`);
    for (const decided of decision) {
      const event = { ...decided, metadata: { ...metadataOf(step), occurredAt: step.at.toISOString() as IsoDateTime } } as MailEvent;
      state = mailDecider.evolve(state, event);
      recorded.push(event);
    }
  }
  // One append for the whole mail: a new stream, as its first attempt would start it.
  await deps.store.append(mailStream(mailId), recorded.map((event) => ({ eventId: randomUUID(), ...encodeEvent(event) })), { expectedVersion: "no_stream" });
};

/** Stores the finished document as the upload form would, and answers the command recording it. */
const uploadDocument = async (deps: ApiDeps, order: PlaceOrderInput, actor: ActingStaff, at: Date, story: DemoDocumentStory): Promise<UploadDocument> => {
  const { fileName, contentType } = story.document;
  const key = documentKey(order.orderId, fileName);
  if (key === undefined) throw new Error(`Seeding failed: no storage key for ${fileName}`);
  const stored = await deps.storage.put(key, contentType === "application/pdf" ? demoDocumentPdf(order.orderId, at) : demoDocumentPng(order.orderId));
  return {
    type: "UploadDocument",
    orderId: order.orderId,
    fileName: stored.storedPath.slice(stored.storedPath.lastIndexOf("/") + 1),
    storedPath: stored.storedPath,
    contentType,
    sizeBytes: stored.sizeBytes,
    actor,
    provider: story.provider,
    to: order.personal.email,
  };
};

/** What became of a demo order: left untouched, assigned and pending, or moved on (perhaps after waiting on others). */
type Outcome =
  | { readonly kind: "untouched" }
  | { readonly kind: "pending" }
  | { readonly kind: "moved"; readonly to: OrderStatus; readonly pausedIn?: "Awaiting" | "AwaitingGovt" };

/**
 * What became of the demo order with `roll` (0-99) that fell due `age` ago. Recent orders fill
 * every working folder; older ones were finished, as a team that keeps up finishes them, so the
 * backlog is days deep, not weeks, and the overdue ones are a handful (issue 27). Orders waiting
 * on others stay longest; those that waited and came back show a paused clock in their history.
 */
const outcomeOf = (roll: number, age: number): Outcome => {
  if (roll < 40) return age < 36 * HOUR ? { kind: "untouched" } : { kind: "moved", to: "Completed" };
  if (roll < 55) return age < 3 * DAY ? { kind: "pending" } : { kind: "moved", to: "Completed" };
  const to = FLOW.find(([limit]) => roll < limit)![1];
  if (to === "Awaiting" || to === "AwaitingGovt") return age < 10 * DAY ? { kind: "moved", to } : { kind: "moved", to: "Completed", pausedIn: to };
  if (to === "ContactCustomer" || to === "CustomerCalled") return age < 3 * DAY ? { kind: "moved", to } : { kind: "moved", to: "Completed" };
  // A few finished ones waited on the customer or the government on the way.
  if (roll < 81) return { kind: "moved", to, pausedIn: "Awaiting" };
  if (roll < 83) return { kind: "moved", to, pausedIn: "AwaitingGovt" };
  return { kind: "moved", to };
};

/** Where assigned demo orders end up, by roll (55-99): the share of each folder. */
const FLOW: readonly (readonly [number, OrderStatus])[] = [
  [62, "Awaiting"],
  [68, "AwaitingGovt"],
  [73, "ContactCustomer"],
  [78, "CustomerCalled"],
  [93, "Completed"],
  [96, "Deleted"],
  [100, "Completed"],
];

const REMARKS: Partial<Record<OrderStatus, string>> = {
  Awaiting: "Asked the customer for a clearer passport scan.",
  AwaitingGovt: "Submitted to the portal; waiting for the QR code.",
  ContactCustomer: "Phone number on file does not answer; please call again.",
  CustomerCalled: "Called the customer and confirmed the travel date.",
  Completed: "Document issued and checked.",
  Deleted: "Duplicate of another order by the same traveller.",
};
