import { randomBytes } from "node:crypto";
import { Result } from "effect";
import type { GatewayId, OrderStatus, Role, StaffId } from "@etd/events";
import { decodePlaceOrderRequest, type ActingStaff, type OrderCommand, type PlaceOrderInput } from "@etd/write";
import { generateDemoOrders, seededRandom, type SeededRandom } from "@etd/demo";
import { utcDay } from "../http/fields.ts";
import type { ApiDeps, Caller } from "../api-deps.ts";
import { runGatewayCommand, runOrderCommand, type Ran } from "../commands/run-command.ts";
import { addStaffAccount, isAccountChanged } from "../commands/staff-accounts.ts";
import { documentKey } from "../uploads/document-key.ts";
import { demoDocumentPdf } from "./demo-document.ts";

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
}

/** How far back the demo's history goes: orders were placed over the last 60 days. */
export const DEMO_HISTORY_DAYS = 60;

const MINUTE = 60_000;
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

  for (const gateway of DEMO_GATEWAYS) {
    mustSucceed(await runGatewayCommand(setUp, system("demo-gateways"), { type: "RegisterGateway", gatewayId: gateway.gatewayId as GatewayId, gatewayName: gateway.gatewayName }, "demo-data"), gateway.gatewayName);
  }
  for (const [gatewayId, domain] of [["stripe", "primary"], ["paypal", "secondary"]] as const) {
    mustSucceed(
      await runGatewayCommand(setUp, system("demo-gateways"), { type: "SelectGateway", gatewayId: gatewayId as GatewayId, domain }, "demo-data"),
      `selecting ${gatewayId}`,
    );
  }

  // Its own sequence, so the order bodies stay those of the seed alone.
  const random = seededRandom(seed ^ 0x5eed_71e);
  for (const [index, order] of orders.entries()) {
    const placedAt = new Date(Date.parse(order.createdAt));
    mustSucceed(await runOrderCommand(asOf(deps, placedAt), system(`demo-order-${order.orderId}`), { type: "PlaceOrder", ...order }, "order-intake"), `order ${order.orderId}`);
    await work(deps, order, index, staff, now, random);
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
) => {
  const roll = (index * 7919 + 13) % 100;
  if (roll < 40) return;
  const { orderId } = order;
  const member = staff[index % staff.length]!;
  const caller: Caller = { user: member, requestId: `demo-work-${orderId}`, ip: "127.0.0.1" };
  // One member works the order from assignment on, so QUEUE-12's read-only rule never stops them.
  const actor: ActingStaff = { id: member.id, name: member.name, role: member.type };

  // Staff take an order up once it is due: the day it was placed, or its later processing day.
  let clock = Math.max(Date.parse(order.createdAt), Date.parse(`${order.processingDate}T00:00:00Z`));
  /** Runs the next step `gap` after the last one, as of then; false when that moment is still to come. */
  const step = async (gap: Gap, command: (at: Date) => OrderCommand | Promise<OrderCommand>): Promise<boolean> => {
    const at = clock + gap[0] + Math.floor(random.next() * (gap[1] - gap[0]));
    if (at > now.getTime()) return false;
    clock = at;
    const when = new Date(at);
    const next = await command(when);
    const by = next.type === "ChangeStatus" && next.actor.id !== member.id ? { ...caller, user: overseer } : caller;
    mustSucceed(await runOrderCommand(asOf(deps, when), by, next), `${next.type} on ${orderId}`);
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
  if (roll < 55) return; // Pending in someone's My Orders
  const to = FLOW.find(([limit]) => roll < limit)![1];
  if (!(await step([5 * MINUTE, 3 * HOUR], remark(REMARKS[to] ?? "Checked.", { whatsapp: roll % 3 === 0, telephone: roll % 4 === 0 })))) return;
  if (to === "Completed" && !(await step([10 * MINUTE, 20 * HOUR], (at) => uploadDocument(deps, order, actor, at)))) return;
  if (!(await step([MINUTE, 20 * MINUTE], moveTo(to)))) return;
  if (roll === 96 || roll === 97) {
    if (!(await step([DAY, 12 * DAY], remark("Customer asked for a refund: travel cancelled.", { statusRefund: true, telephone: true })))) return;
    if (roll === 97) await step([DAY, 5 * DAY], () => ({ type: "MarkOrderRefunded", orderId, actor }));
  } else if (roll >= 98) {
    await step([3 * DAY, 20 * DAY], remark("Bank notified a chargeback on this payment.", { chargeBack: true }));
  }
};

/** Stores the finished document as the upload form would, and answers the command recording it. */
const uploadDocument = async (deps: ApiDeps, order: PlaceOrderInput, actor: ActingStaff, at: Date): Promise<OrderCommand> => {
  const fileName = `etravel-${order.orderId}.pdf`;
  const key = documentKey(order.orderId, fileName);
  if (key === undefined) throw new Error(`Seeding failed: no storage key for ${fileName}`);
  const stored = await deps.storage.put(key, demoDocumentPdf(order.orderId, at));
  return {
    type: "UploadDocument",
    orderId: order.orderId,
    fileName,
    storedPath: stored.storedPath,
    contentType: "application/pdf",
    sizeBytes: stored.sizeBytes,
    actor,
    provider: "AWS",
    to: order.personal.email,
  };
};

/** Where assigned demo orders end up, by roll (0-99): the share of each folder. */
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
