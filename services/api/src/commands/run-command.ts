import { comparePositions, formatPosition, parsePosition, type GlobalPosition } from "@etd/event-store";
import { orderStream, GATEWAYS_STREAM, OPERATIONS_STREAM, SERVICE_LEVELS_STREAM, type OrderId } from "@etd/events";
import {
  gatewayDecider,
  handleCommand,
  isStaleVersion,
  operationsDecider,
  orderDecider,
  serviceLevelDecider,
  type GatewayCommand,
  type OperationCommand,
  type OrderCommand,
  type Refusal,
  type ServiceLevelCommand,
} from "@etd/write";
import { isAllowed, ORDER_CHANGED_MESSAGE, type BulkChangeAnswer, type OrderChangedAnswer } from "@etd/contract";
import { fail, ok, type Reply } from "../http/reply.ts";
import { requestMetadata, type ApiDeps, type Caller } from "../api-deps.ts";
import type { SessionUser } from "../auth/tokens.ts";
import { orderChangedAnswer } from "./order-changed.ts";

/*
 * The bridge from an endpoint to a decider: run the command through the handler and turn its
 * refusal into the answer the client shows. Every successful command answers with the global
 * position of its last event (`data.position`) so the client can wait for the read models to
 * reach it (read-your-writes).
 */

/** The signed-in member as a command's actor (who decided, as the log records it). */
export const actorOf = (user: SessionUser) => ({ id: user.id, name: user.name, role: user.type });

const HTTP_STATUS: Record<Refusal["reason"], number> = { not_found: 404, conflict: 409, forbidden: 403, invalid: 400, changed: 409 };

export const refusalReply = (refusal: Refusal): Reply<never> => fail(HTTP_STATUS[refusal.reason], refusal.message);

export type Ran =
  | { readonly ok: true; readonly position: string | undefined }
  | {
      readonly ok: false;
      readonly refusal: Refusal;
      /** Set when the order moved on past the page's expectedVersion: what changed, from the log. */
      readonly changed?: OrderChangedAnswer;
    };

const run = async (
  deps: ApiDeps,
  context: Caller,
  streamId: string,
  execute: (options: Parameters<typeof handleCommand>[2]) => ReturnType<typeof handleCommand>,
  system?: string,
  expectedVersion?: bigint,
): Promise<Ran> => {
  const outcome = await execute({
    store: deps.store,
    streamId,
    metadata: requestMetadata(context, system),
    now: deps.now,
    ...(expectedVersion === undefined ? {} : { expectedVersion }),
  });
  return outcome.ok ? { ok: true, position: outcome.position } : outcome;
};

/**
 * `system` names the actor when no staff member acts (intake, demo data, reactors).
 * `expectedVersion`: the version the order page showed (ADR 0014); any event after it refuses the
 * command, and the answer carries what happened since, read from the order's stream.
 */
export const runOrderCommand = async (
  deps: ApiDeps,
  context: Caller,
  command: OrderCommand,
  system?: string,
  expectedVersion?: bigint,
): Promise<Ran> => {
  const ran = await run(deps, context, orderStream(command.orderId), (options) => handleCommand(orderDecider, command, options), system, expectedVersion);
  // Only the handler's stale-version answer has a history to show; a selected order that changed
  // (issue 16, the decider's "changed") carries its own message and goes into the bulk answer's refused.
  if (ran.ok || !isStaleVersion(ran.refusal) || expectedVersion === undefined) return ran;
  const withAddresses = context.user !== undefined && isAllowed(context.user.type, "audit.read");
  return { ...ran, changed: await orderChangedAnswer(deps, command.orderId, expectedVersion, withAddresses) };
};

/** 409, status 0, ORDER_CHANGED_MESSAGE, and what changed since the page's version (OrderChangedAnswer). */
export const changedReply = (changed: OrderChangedAnswer): Reply<never> => fail(409, ORDER_CHANGED_MESSAGE, changed);

export const runGatewayCommand = (deps: ApiDeps, context: Caller, command: GatewayCommand, system?: string): Promise<Ran> =>
  run(deps, context, GATEWAYS_STREAM, (options) => handleCommand(gatewayDecider, command, options), system);

/** The service-level policy (issue 27): one stream, so two Admins saving at once get one version each. */
export const runServiceLevelCommand = (deps: ApiDeps, context: Caller, command: ServiceLevelCommand, system?: string): Promise<Ran> =>
  run(deps, context, SERVICE_LEVELS_STREAM, (options) => handleCommand(serviceLevelDecider, command, options), system);

/** The operator's actions (issue 28): requests in the operations stream, carried out by who follows it. */
export const runOperationCommand = (deps: ApiDeps, context: Caller, command: OperationCommand): Promise<Ran> =>
  run(deps, context, OPERATIONS_STREAM, (options) => handleCommand(operationsDecider, command, options));

/** A single command's answer: the refusal's message, or `success` with the position. */
export const replyTo = (ran: Ran, success: string): Reply<{ readonly position: string | null }> =>
  ran.ok ? ok(success, { position: ran.position ?? null }) : ran.changed ? changedReply(ran.changed) : refusalReply(ran.refusal);

const latest = (positions: readonly (string | undefined)[]): string | null => {
  let best: GlobalPosition | undefined;
  for (const text of positions) {
    const position = text ? parsePosition(text) : undefined;
    if (position && (!best || comparePositions(position, best) > 0)) best = position;
  }
  return best ? formatPosition(best) : null;
};

/**
 * Orders decided at once by one bulk action. Each order is its own stream, so they never contend
 * with each other; a few at a time bring a 5,000-order selection (issue 16) well inside a proxy's
 * minute, while one request still holds only a few of the pool's connections.
 */
const BULK_CONCURRENCY = 4;

/**
 * Bulk actions (QUEUE-8..11) run one command per order. All succeed: the spec's message. Some are
 * refused: status 0 naming what went wrong, and which orders did change (they stay changed:
 * each order is its own consistency boundary). Results keep the order of `orderIds`.
 */
export const runForEachOrder = async (
  orderIds: readonly OrderId[],
  command: (orderId: OrderId) => Promise<Ran>,
  success: string,
): Promise<Reply<BulkChangeAnswer>> => {
  const results: { orderId: string; ran: Ran }[] = new Array(orderIds.length);
  let next = 0;
  const worker = async () => {
    while (next < orderIds.length) {
      const index = next++;
      const orderId = orderIds[index]!;
      results[index] = { orderId, ran: await command(orderId) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, orderIds.length) }, worker));
  const changed = results.filter((r) => r.ran.ok).map((r) => r.orderId);
  const refused = results.flatMap((r) => (r.ran.ok ? [] : [{ orderId: r.orderId, refusal: r.ran.refusal }]));
  const position = latest(results.map((r) => (r.ran.ok ? r.ran.position : undefined)));
  if (refused.length === 0) return ok(success, { changed, position });
  const first = refused[0]!;
  const firstRan = results[0]!.ran;
  // One order sent with the page's version: the same answer as a single command's.
  if (results.length === 1 && !firstRan.ok && firstRan.changed) return changedReply(firstRan.changed);
  if (results.length === 1) return fail(HTTP_STATUS[first.refusal.reason], first.refusal.message, { changed, refused: [], position });
  const message = `${refused.length} of ${results.length} orders were not changed. ${first.refusal.message}`;
  return fail(409, message, {
    changed,
    refused: refused.map((r) => ({ orderId: r.orderId, message: r.refusal.message })),
    position,
  });
};
