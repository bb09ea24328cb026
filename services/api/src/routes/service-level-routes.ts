import * as Result from "effect/Result";
import type { ServiceClockAnswer, ServiceClockReading, ServiceLevelPolicies, ServiceLevelPolicyVersion } from "@etd/contract";
import { toOrderId } from "@etd/contract/requests";
import type { RecordedEvent } from "@etd/event-store";
import {
  decodeEvent,
  DEFAULT_POLICY,
  isOrderEvent,
  orderStream,
  policyInForce,
  replayClock,
  SERVICE_LEVELS_STREAM,
  statusAfter,
  statusLabel,
  type AnyEvent,
  type IsoDateTime,
  type OrderEvent,
  type OrderStatus,
  type ServiceLevelPolicySet,
} from "@etd/events";
import type { ApiDeps } from "../api-deps.ts";
import { actorOf, replyTo, runServiceLevelCommand } from "../commands/run-command.ts";
import type { Handlers } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";
import { auditActor, auditedActor, momentOf } from "./audit-events.ts";

/*
 * Service levels (issue 27, ADR 0036): the policy an Admin sets and an order's clock, both folded
 * from the log (the service-levels stream, the order's own stream) with the one clock module of
 * @etd/events, never re-derived here. The clock is the order page's: whoever may open the order
 * may read it, and an id that names no order answers as the order page does. It reveals nothing
 * the page does not (statuses, times, and the members who acted, as the page's history names them).
 */

const decodeAll = <E extends AnyEvent>(streamId: string, raw: readonly RecordedEvent[], accept: (event: AnyEvent) => event is E): E[] =>
  raw.map((r) => {
    const decoded = decodeEvent(r);
    if (Result.isFailure(decoded) || !accept(decoded.success)) throw new Error(`Unreadable event ${r.eventId} in ${streamId}`);
    return decoded.success;
  });

const isPolicySet = (event: AnyEvent): event is ServiceLevelPolicySet => event.type === "ServiceLevelPolicySet";

const DEFAULT_VERSION: ServiceLevelPolicyVersion = { version: DEFAULT_POLICY.version, allowedMinutes: DEFAULT_POLICY.allowedMinutes, setBy: null, setAt: null };

const versionOf = (event: ServiceLevelPolicySet): ServiceLevelPolicyVersion => ({
  version: event.data.version,
  allowedMinutes: event.data.allowedMinutes,
  setBy: auditActor(event),
  setAt: event.metadata.occurredAt,
});

/** The order's status at a moment: the last status an event up to it put the order in. */
const statusAt = (history: readonly OrderEvent[], atMs: number): OrderStatus | undefined => {
  let status: OrderStatus | undefined;
  for (const event of history) {
    if (Date.parse(event.metadata.occurredAt) > atMs) break;
    status = statusAfter(event) ?? status;
  }
  return status;
};

export const serviceLevelHandlers = (deps: ApiDeps) => {
  const policies = async (): Promise<ServiceLevelPolicySet[]> => decodeAll(SERVICE_LEVELS_STREAM, await deps.store.readStream(SERVICE_LEVELS_STREAM), isPolicySet);

  /** The clock as of `asOf`: null before the order was paid. */
  const readingOf = (history: readonly OrderEvent[], set: readonly ServiceLevelPolicySet[], asOf: IsoDateTime): ServiceClockReading | null => {
    const placed = history.find((event) => event.type === "OrderPlaced");
    if (placed === undefined) return null;
    const replay = replayClock(history, policyInForce(set, placed.metadata.occurredAt), asOf);
    if (replay === undefined) return null;
    const { fold, segments, usedMs } = replay;
    const current = segments.at(-1)?.state ?? fold.state;
    return {
      state: current,
      kind: fold.kind,
      policyVersion: fold.policyVersion,
      usedMs,
      allowedMs: fold.allowedMs,
      leftMs: fold.allowedMs - usedMs,
      dueAt: replay.dueAt ?? null,
      segments: segments.map((segment) => {
        const status = statusAt(history, Date.parse(segment.from));
        return {
          state: segment.state,
          from: segment.from,
          to: segment.to ?? null,
          countedMs: segment.countedMs,
          eventType: segment.cause.eventType,
          actor: auditedActor(segment.cause.actor),
          status: status === undefined ? "" : statusLabel(status),
        };
      }),
    };
  };

  return {
    getServiceLevels: async () => {
      const versions = (await policies()).map(versionOf).reverse();
      const answer: ServiceLevelPolicies = { inForce: versions[0] ?? DEFAULT_VERSION, versions: [...versions, DEFAULT_VERSION] };
      return ok("Service levels loaded.", answer);
    },
    setServiceLevels: async (context) => {
      const ran = await runServiceLevelCommand(deps, context, { type: "SetServiceLevelPolicy", allowedMinutes: context.input, actor: actorOf(context.user) });
      return replyTo(ran, "The service levels have been saved. They apply to orders paid from now on.");
    },
    getServiceClock: async ({ params, input }) => {
      const orderId = toOrderId(params.orderId);
      const streamId = orderStream(orderId);
      const history = decodeAll(streamId, await deps.store.readStream(streamId), isOrderEvent);
      // As the order page answers an id that names no order.
      if (history.length === 0) return fail(404, `Order ${orderId} was not found.`);
      const asOf = (input.asOf === undefined ? deps.now().toISOString() : momentOf(input.asOf).iso) as IsoDateTime;
      const answer: ServiceClockAnswer = { orderId, asOf, clock: readingOf(history, await policies(), asOf) };
      return ok("Service level loaded.", answer);
    },
  } satisfies Partial<Handlers>;
};
