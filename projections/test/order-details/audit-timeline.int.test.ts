import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import { GATEWAYS_STREAM, GatewayId, mailStream, staffStream, type OrderId } from "@etd/events";
import { gatewayDecider, staffDecider } from "@etd/write";
import { auditTimeline, orderDetailsProjection } from "../../src/order-details/index.ts";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import {
  ALICIA,
  asStaff,
  asSystem,
  CARLO,
  createLog,
  demoInputs,
  mailOf,
  MARIA,
  pick,
  placeOrder,
  refOf,
  streamRunner,
  TESSA,
} from "./support/story.ts";

/*
 * The audit timeline (CARD-4, DESIGN §5): one readable line per event of every stream, who and
 * when, read page by page for an order, a staff member or the gateways.
 */

const input = pick(demoInputs(), "a priority order due the day it was placed", (o) => o.processingMode === "priority" && o.processingDate === o.createdAt.slice(0, 10));
const STRIPE = GatewayId.make("stripe-1");
const PAYPAL = GatewayId.make("paypal-1");

const story = () => {
  const log = createLog("2025-03-14T08:00:00.000Z");
  const setup = asSystem("setup");
  const tessa = streamRunner(log, staffStream(TESSA.id), staffDecider);
  const carlo = streamRunner(log, staffStream(CARLO.id), staffDecider);
  const gateways = streamRunner(log, GATEWAYS_STREAM, gatewayDecider);

  carlo.run({ type: "AddStaffMember", staffId: CARLO.id, name: CARLO.name, email: "carlo@etd.example", role: "Admin", actor: { system: "setup" } }, setup);
  tessa.run({ type: "AddStaffMember", staffId: TESSA.id, name: TESSA.name, email: "tessa@etd.example", role: "Team", actor: MARIA }, asStaff(MARIA));
  gateways.run({ type: "RegisterGateway", gatewayId: PAYPAL, gatewayName: "PayPal" }, setup);
  gateways.run({ type: "RegisterGateway", gatewayId: STRIPE, gatewayName: "Stripe" }, setup);
  gateways.run({ type: "SelectGateway", gatewayId: PAYPAL, domain: "primary" }, asStaff(MARIA));

  const order = placeOrder(log, input);
  const orderId: OrderId = order.orderId;
  log.advance(15);
  // Alicia holds the order; the others who change it may (QUEUE-12): a Manager and an Admin.
  order.run({ type: "AssignOrder", orderId, assignee: refOf(ALICIA), now: log.now() }, asStaff(ALICIA));
  order.run({ type: "ChangeStatus", orderId, to: "Awaiting", actor: MARIA, permanentDelete: false }, asStaff(MARIA));
  log.advance(120);
  order.run({ type: "ChangeStatus", orderId, to: "Completed", actor: ALICIA, permanentDelete: false }, asStaff(ALICIA));
  const upload = order.run(
    {
      type: "UploadDocument",
      orderId,
      fileName: "etravel.pdf",
      storedPath: `docs/${orderId}/etravel.pdf`,
      contentType: "application/pdf",
      sizeBytes: 52_001,
      actor: CARLO,
      provider: "AWS",
      to: input.personal.email,
    },
    asStaff(CARLO),
  );
  // The upload's mail, in its own stream: AWS had no credentials, so the outbox took it.
  const uploadMail = mailOf(log, upload);
  uploadMail.queued("outbox");
  uploadMail.sent("outbox", "outbox-0001");
  order.run({ type: "ResendDocumentMail", orderId, provider: "Sendgrid", to: input.personal.email, actor: ALICIA }, asStaff(ALICIA));

  tessa.run({ type: "UpdateStaffMember", staffId: TESSA.id, name: TESSA.name, email: "tessa@etd.example", role: "Night Staff", actor: MARIA, team: { admins: 1 } }, asStaff(MARIA));
  carlo.run({ type: "ChangePassword", staffId: CARLO.id, actor: CARLO }, asStaff(CARLO));
  tessa.run({ type: "UpdateStaffMember", staffId: TESSA.id, name: TESSA.name, email: "tessa@etd.example", role: "Night Staff", changesPassword: true, actor: CARLO, team: { admins: 1 } }, asStaff(CARLO));
  gateways.run({ type: "SelectGateway", gatewayId: STRIPE, domain: "primary" }, asStaff(CARLO));
  tessa.run({ type: "DeleteStaffMember", staffId: TESSA.id, actor: CARLO, team: { admins: 1 } }, asStaff(CARLO));
  return { log, uploadMailStream: mailStream(uploadMail.mailId) };
};

const ORDER_LINES = [
  "order-intake placed the order (priority, " + input.landingDomain + " domain)",
  "Alicia Ramos (Team) assigned the order to themselves; status Priority → Pending",
  "Maria Santos (Manager) moved the order from Pending to Awaiting Customer",
  "Alicia Ramos (Team) moved the order from Awaiting Customer to Completed",
  "Carlo Mendoza (Admin) uploaded etravel.pdf and asked AWS to mail it",
  "Alicia Ramos (Team) asked Sendgrid to mail etravel.pdf again",
];

describe.skipIf(!(await postgresAvailable()))("the audit timeline (CARD-4)", () => {
  const { log, uploadMailStream } = story();
  let harness: Harness;
  let oneByOne: Harness;

  beforeAll(async () => {
    [harness, oneByOne] = await Promise.all([openHarness([orderDetailsProjection]), openHarness([orderDetailsProjection])]);
    await harness.apply(log.events);
    await oneByOne.apply(log.events, 1);
  });
  afterAll(async () => Promise.all([harness?.close(), oneByOne?.close()]));

  it("tells an order's history line by line: who, in which role, what changed", async () => {
    const page = await auditTimeline(harness.driver.query, { orderId: input.orderId });
    expect(page.lines.map((line) => line.summary)).toEqual(ORDER_LINES);
    expect(page.next).toBeNull();
    expect(page.lines[1]).toMatchObject({
      stream: `order-${input.orderId}`,
      position: 2,
      actor_kind: "staff",
      actor_name: ALICIA.name,
      actor_role: "Team",
      event_type: "OrderAssigned",
      occurred_at: expect.stringMatching(/^2025-03-14T08:1\d:\d\d\.000Z$/),
      log_position: expect.stringMatching(/^\d+\.\d+$/),
    });
  });

  it("tells a mail's own history in its stream, line by line, by the mail reactor (issue 12, DESIGN §8)", async () => {
    const page = await auditTimeline(harness.driver.query, { streamId: uploadMailStream });
    expect(page.lines.map((line) => line.summary)).toEqual([
      "mail-reactor queued attempt 1 of the document mail for AWS, via outbox (.eml file, no provider credentials)",
      "mail-reactor handed attempt 1 of the mail to outbox (.eml file, no provider credentials), which accepted it as outbox-0001",
    ]);
    expect(page.lines[0]).toMatchObject({ stream: uploadMailStream, position: 1, actor_kind: "system", actor_name: "mail-reactor", actor_role: null, event_type: "MailQueued" });
  });

  it("pages through a long history without gaps or repeats", async () => {
    const seen: string[] = [];
    let after: number | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await auditTimeline(harness.driver.query, { orderId: input.orderId }, { limit: 3, after });
      seen.push(...page.lines.map((line) => line.summary));
      if (page.next === null) break;
      after = page.next;
    }
    expect(seen).toEqual(ORDER_LINES);
  });

  it("tells a staff member's history, naming whom each change was about", async () => {
    const tessa = await auditTimeline(harness.driver.query, { streamId: staffStream(TESSA.id) });
    expect(tessa.lines.map((line) => line.summary)).toEqual([
      "Maria Santos (Manager) added Tessa Cruz to the team as Team",
      "Maria Santos (Manager) changed the role of Tessa Cruz from Team to Night Staff",
      "Carlo Mendoza (Admin) set a new password for Tessa Cruz",
      "Carlo Mendoza (Admin) removed Tessa Cruz from the team",
    ]);
    const carlo = await auditTimeline(harness.driver.query, { streamId: staffStream(CARLO.id) });
    expect(carlo.lines.map((line) => line.summary)).toEqual(["setup added Carlo Mendoza to the team as Admin", "Carlo Mendoza (Admin) changed their own password"]);
  });

  it("tells the gateways' history by gateway name (ADMIN-2)", async () => {
    const page = await auditTimeline(harness.driver.query, { streamId: GATEWAYS_STREAM });
    expect(page.lines.map((line) => line.summary)).toEqual([
      "setup registered the payment gateway PayPal",
      "setup registered the payment gateway Stripe",
      "Maria Santos (Manager) made PayPal the active gateway of the primary domain",
      "Carlo Mendoza (Admin) made Stripe the active gateway of the primary domain, replacing PayPal",
    ]);
  });

  it("reads the same whatever the batch size: names and documents carry over between batches", async () => {
    for (const target of [{ orderId: input.orderId }, { streamId: staffStream(TESSA.id) }, { streamId: GATEWAYS_STREAM }, { streamId: uploadMailStream }]) {
      expect(await auditTimeline(oneByOne.driver.query, target)).toEqual(await auditTimeline(harness.driver.query, target));
    }
  });

  it("has no line for a stream that does not exist", async () => {
    expect(await auditTimeline(harness.driver.query, { orderId: "100000999" })).toEqual({ lines: [], next: null });
  });
});
