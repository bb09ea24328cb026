import { randomBytes } from "node:crypto";
import { Result } from "effect";
import type { GatewayId, OrderId, OrderStatus, Role, StaffId } from "@etd/events";
import { decodePlaceOrderRequest, generateDemoOrders, type OrderCommand } from "@etd/write";
import { utcDay } from "../http/fields.ts";
import type { ApiDeps, Caller } from "../api-deps.ts";
import { runGatewayCommand, runOrderCommand, type Ran } from "../commands/run-command.ts";
import { addStaffAccount, isAccountChanged } from "../commands/staff-accounts.ts";

/*
 * What a fresh installation starts with. Demo mode: one staff member per role, the payment
 * gateways, and about 2,000 orders with a realistic spread of work already done on them, all
 * written through the same deciders as real commands. Otherwise: only the first admin named in
 * the environment.
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
  readonly now?: Date;
}

export const seedDemo = async (deps: ApiDeps, options: DemoOptions): Promise<{ orders: number }> => {
  const now = options.now ?? deps.now();
  const staff: { id: StaffId; name: string; type: Role }[] = [];
  for (const member of DEMO_STAFF) {
    const added = await addStaffAccount(deps, system("demo-staff"), { ...member, password: options.password }, "demo-data");
    if (!isAccountChanged(added)) throw new Error(`Could not add demo staff ${member.email}: ${added.body.message}`);
    staff.push({ id: added.staffId, name: member.name, type: member.role });
  }

  for (const gateway of DEMO_GATEWAYS) {
    mustSucceed(await runGatewayCommand(deps, system("demo-gateways"), { type: "RegisterGateway", gatewayId: gateway.gatewayId as GatewayId, gatewayName: gateway.gatewayName }, "demo-data"), gateway.gatewayName);
  }
  for (const [gatewayId, domain] of [["stripe", "primary"], ["paypal", "secondary"]] as const) {
    mustSucceed(
      await runGatewayCommand(deps, system("demo-gateways"), { type: "SelectGateway", gatewayId: gatewayId as GatewayId, domain }, "demo-data"),
      `selecting ${gatewayId}`,
    );
  }

  const bodies = generateDemoOrders({ seed: options.seed ?? 2026, count: options.orderCount ?? 2000, now });
  let index = 0;
  for (const body of bodies) {
    const decoded = decodePlaceOrderRequest(body);
    if (Result.isFailure(decoded)) throw new Error(`Demo order does not decode: ${JSON.stringify(decoded.failure.errors)}`);
    const order = decoded.success;
    mustSucceed(await runOrderCommand(deps, system(`demo-order-${order.orderId}`), { type: "PlaceOrder", ...order }, "order-intake"), `order ${order.orderId}`);
    await work(deps, order.orderId, index++, staff, now, order.processingDate > now.toISOString().slice(0, 10));
  }
  return { orders: bodies.length };
};

/**
 * Work already done on demo order number `index`, so every folder has something in it: most
 * recent orders are untouched (New, Priority, Future), older ones were claimed and moved on.
 */
const work = async (
  deps: ApiDeps,
  orderId: OrderId,
  index: number,
  staff: readonly { id: StaffId; name: string; type: Role }[],
  now: Date,
  future: boolean,
) => {
  const roll = (index * 7919 + 13) % 100;
  if (future || roll < 40) return;
  const member = staff[index % staff.length]!;
  const caller: Caller = { user: member, requestId: `demo-work-${orderId}`, ip: "127.0.0.1" };
  const run = async (command: OrderCommand) => mustSucceed(await runOrderCommand(deps, caller, command), `${command.type} on ${orderId}`);
  const remark = (text: string, flags: { statusRefund?: boolean; chargeBack?: boolean; whatsapp?: boolean; telephone?: boolean }) =>
    run({
      type: "AddRemark",
      orderId,
      remark: text,
      remarkerName: member.name,
      whatsapp: flags.whatsapp ?? false,
      telephone: flags.telephone ?? false,
      statusRefund: flags.statusRefund ?? false,
      voided: false,
      chargeBack: flags.chargeBack ?? false,
      reportError: false,
      today: utcDay(now),
    });

  await run({ type: "ClaimOrder", orderId, assignee: { id: member.id, name: member.name }, now: now.toISOString() });
  if (roll < 55) return; // Pending in someone's My Orders
  const to = FLOW.find(([limit]) => roll < limit)![1];
  await remark(REMARKS[to] ?? "Checked.", { whatsapp: roll % 3 === 0, telephone: roll % 4 === 0 });
  await run({ type: "ChangeOrderStatus", orderId, to, actor: { id: member.id, name: member.name, role: member.type }, permanentDelete: false });
  if (roll === 96 || roll === 97) {
    await remark("Customer asked for a refund: travel cancelled.", { statusRefund: true, telephone: true });
    if (roll === 97) await run({ type: "MarkOrderRefunded", orderId });
  } else if (roll >= 98) {
    await remark("Bank notified a chargeback on this payment.", { chargeBack: true });
  }
};

/** Where claimed demo orders end up, by roll (0-99): the share of each folder. */
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
