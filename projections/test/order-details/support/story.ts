import { randomUUID } from "node:crypto";
import * as Result from "effect/Result";
import {
  isErased,
  isMailRequestType,
  MAIL_REQUEST_PURPOSES,
  mailStream,
  orderStream,
  StaffId,
  type Actor,
  type AnyEvent,
  type EventId,
  type EventMetadata,
  type IsoDateTime,
  type MailTransport,
  type OrderEvent,
  type OrderId,
  type Role,
  type StaffRef,
  type WithoutMetadata,
} from "@etd/events";
import {
  decodePlaceOrderRequest,
  isRefusal,
  mailDecider,
  orderDecider,
  type ActingStaff,
  type Decider,
  type DeliveryOutcome,
  type MailCommand,
  type MailState,
  type OrderCommand,
  type OrderState,
  type PlaceOrder,
  type PlaceOrderInput,
  type PlaceOrderRequestBody,
} from "@etd/write";
import { generateDemoOrders } from "@etd/demo";
import type { ProjectedEvent } from "../../../src/engine/projection.ts";

/*
 * Realistic logs for the order detail tests: commands go through the real deciders, events get
 * the metadata the API would stamp (actor, correlation, causation for the mail reactor), stream
 * and global positions are counted like the store does, and a clock moves forward as staff work.
 */

export interface StaffMember {
  readonly id: StaffId;
  readonly name: string;
  readonly role: Role;
}

const member = (id: string, name: string, role: Role): StaffMember => ({ id: StaffId.make(id), name, role });

export const MARIA = member("7f3c2a", "Maria Santos", "Manager");
export const ALICIA = member("a1c1a0", "Alicia Ramos", "Team");
export const TESSA = member("7e55a9", "Tessa Cruz", "Night Staff");
export const CARLO = member("c4a410", "Carlo Mendoza", "Admin");
export const TEAM = [MARIA, ALICIA, TESSA, CARLO] as const;

export const asStaff = (staff: StaffMember): Actor => ({ kind: "staff", ...staff });
export const asSystem = (name: string): Actor => ({ kind: "system", name });
export const CUSTOMER: Actor = { kind: "customer" };
export const INTAKE = asSystem("order-intake");
export const MAIL_REACTOR = asSystem("mail-reactor");

export const refOf = (staff: StaffMember): StaffRef => ({ id: staff.id, name: staff.name });

export interface Log {
  readonly events: ProjectedEvent[];
  /** Moves the clock on: staff do not act every second. */
  advance(minutes: number): void;
  /** The clock's day, as deciders take `today`. */
  today(): string;
  now(): string;
  append(streamId: string, event: WithoutMetadata<AnyEvent>, actor: Actor, causationId?: string): ProjectedEvent;
}

export const createLog = (start = "2025-03-14T08:00:00.000Z"): Log => {
  const events: ProjectedEvent[] = [];
  const versions = new Map<string, bigint>();
  let clock = Date.parse(start);
  return {
    events,
    advance: (minutes) => {
      clock += minutes * 60_000;
    },
    today: () => new Date(clock).toISOString().slice(0, 10),
    now: () => new Date(clock).toISOString(),
    append: (streamId, event, actor, causationId) => {
      clock += 1000;
      const streamPosition = (versions.get(streamId) ?? 0n) + 1n;
      versions.set(streamId, streamPosition);
      const metadata: EventMetadata = {
        actor,
        correlationId: `req-${String(events.length + 1)}`,
        ...(causationId === undefined ? {} : { causationId }),
        ...(actor.kind === "staff" ? { requestIp: "203.0.113.24" } : {}),
        occurredAt: new Date(clock).toISOString() as IsoDateTime,
      };
      const projected: ProjectedEvent = {
        event: { ...event, metadata },
        eventId: randomUUID(),
        streamId,
        streamPosition,
        position: { tx: BigInt(5000 + events.length), seq: BigInt(events.length + 1) },
        recordedAt: new Date(clock),
      };
      events.push(projected);
      return projected;
    },
  };
};

export interface StreamRunner<Command, State> {
  readonly state: () => State;
  /** Runs a command through the decider and appends what it decides; a refusal fails the test. */
  run(command: Command, actor: Actor, causationId?: string): ProjectedEvent[];
}

export const streamRunner = <Command, State, Event extends AnyEvent>(
  log: Log,
  streamId: string,
  decider: Decider<Command, State, Event>,
): StreamRunner<Command, State> => {
  let state = decider.initialState;
  return {
    state: () => state,
    run: (command, actor, causationId) => {
      const decision = decider.decide(command, state);
      if (isRefusal(decision)) throw new Error(`refused: ${decision.message}`);
      return decision.map((event) => {
        const projected = log.append(streamId, event, actor, causationId);
        state = decider.evolve(state, projected.event as Event);
        return projected;
      });
    },
  };
};

/** An order placed by intake, whose later commands the test runs. */
export const placeOrder = (log: Log, input: PlaceOrderInput): StreamRunner<OrderCommand, OrderState> & { readonly orderId: OrderId } => {
  const runner = streamRunner(log, orderStream(input.orderId), orderDecider);
  const place: PlaceOrder = { type: "PlaceOrder", ...input };
  runner.run(place, INTAKE);
  return { ...runner, orderId: input.orderId };
};

const NOW = new Date("2025-03-14T07:00:00.000Z");

export interface DemoOrder {
  /** The flat body as the customer-facing site sends it ("Regular Processing", "yes", …). */
  readonly body: PlaceOrderRequestBody;
  /** The same order decoded like real intake. */
  readonly input: PlaceOrderInput;
}

/** Demo intake orders: the same seed always gives the same orders. */
export const demoOrders = (count = 300, seed = 2025): DemoOrder[] =>
  generateDemoOrders({ seed, count, now: NOW }).map((body) => {
    const decoded = decodePlaceOrderRequest(body);
    if (Result.isFailure(decoded)) throw decoded.failure;
    return { body, input: decoded.success };
  });

export const demoInputs = (count = 300, seed = 2025): PlaceOrderInput[] => demoOrders(count, seed).map((order) => order.input);

/** The first demo order that fits; a missing variant is a broken test, not a skipped one. */
export const pick = <T>(inputs: readonly T[], what: string, fits: (input: T) => boolean): T => {
  const found = inputs.find(fits);
  if (found === undefined) throw new Error(`no demo order is ${what}`);
  return found;
};

/** One mail's stream (`mail-{mailId}`, DESIGN §8), driven through the mail's real decider. */
export interface MailStory {
  readonly mailId: EventId;
  readonly runner: StreamRunner<MailCommand, MailState>;
  queued(transport: MailTransport): ProjectedEvent[];
  sent(transport: MailTransport, providerMessageId: string): ProjectedEvent[];
  /** `retryInMinutes`: another attempt follows then; without it the mail failed for good. */
  failed(reason: string, retryInMinutes?: number): ProjectedEvent[];
  unknown(): ProjectedEvent[];
  reported(outcome: DeliveryOutcome, providerEventId: string, reportedAt: string, bounce?: { readonly reason: string; readonly permanent: boolean }): ProjectedEvent[];
  retryAskedBy(actor: ActingStaff, order: OrderState): ProjectedEvent[];
}

/** The mail asked for by `request` (an upload, a resend, a reminder, an invoice): its id is the request's. */
export const mailOf = (log: Log, request: readonly ProjectedEvent[]): MailStory => {
  const asked = request.find((p) => isMailRequestType(p.event.type));
  if (asked === undefined) throw new Error(`no mail request among ${request.map((p) => p.event.type).join(", ")}`);
  const event = asked.event as Extract<OrderEvent, { readonly type: keyof typeof MAIL_REQUEST_PURPOSES }>;
  const mailId = asked.eventId as EventId;
  const { orderId, provider } = event.data;
  const runner = streamRunner(log, mailStream(mailId), mailDecider);
  const reactor = MAIL_REACTOR;
  return {
    mailId,
    runner,
    queued: (transport) =>
      runner.run(
        {
          type: "QueueMail",
          mailId,
          orderId,
          purpose: MAIL_REQUEST_PURPOSES[event.type],
          provider,
          transport,
          messageId: `<${mailId}.${String(runner.state().attempt + 1)}@mail.etd.example>`,
          template: "document/primary",
          from: "ETD <no-reply@etd.example>",
          // The address the request named; the content as the reactor would render it.
          content: {
            to: isErased(event.data.personal) ? "erased@example.invalid" : event.data.personal.to,
            subject: `Your eTravel document for order ${orderId}`,
            text: `Your eTravel document for order ${orderId} is ready.`,
            html: `<p>Your eTravel document for order <b>${orderId}</b> is ready.</p>`,
          },
          now: new Date(log.now()),
        },
        reactor,
      ),
    sent: (transport, providerMessageId) =>
      runner.run({ type: "RecordMailSent", mailId, attempt: runner.state().attempt, transport, providerMessageId }, reactor),
    failed: (reason, retryInMinutes) =>
      runner.run(
        {
          type: "RecordMailFailure",
          mailId,
          attempt: runner.state().attempt,
          reason,
          permanent: retryInMinutes === undefined,
          retryDelaysMs: retryInMinutes === undefined ? [] : Array.from({ length: runner.state().attempt }, () => retryInMinutes * 60_000),
          now: new Date(log.now()),
        },
        reactor,
      ),
    unknown: () => runner.run({ type: "MarkMailOutcomeUnknown", mailId, attempt: runner.state().attempt }, reactor),
    reported: (outcome, providerEventId, reportedAt, bounce) =>
      runner.run(
        {
          type: "RecordDeliveryReport",
          mailId,
          orderId,
          transport: runner.state().transport === "sendgrid" ? "sendgrid" : "ses",
          outcome,
          providerEventId,
          reportedAt,
          ...(bounce === undefined ? {} : bounce),
        },
        asSystem(runner.state().transport === "sendgrid" ? "sendgrid-webhook" : "ses-webhook"),
      ),
    retryAskedBy: (actor, order) =>
      runner.run({ type: "RequestMailRetry", mailId, orderId, actor, order }, { kind: "staff", id: actor.id, name: actor.name, role: actor.role }),
  };
};
