import { fullName, STAFF_ACTIVITY_LIMIT, type AuditEvent, type QueueAtMoment, type QueueAtRow, type StaffActivity } from "@etd/contract";
import { isOrderEvent, staffStream, statusLabel, type AnyEvent, type ServiceLevelPolicySet, type StaffId } from "@etd/events";
import { evolveQueueRow, isInFolder, queueKeyOf, type QueueRow } from "@etd/projections";
import type { RecordedEvent } from "@etd/event-store";
import type { AuditContext } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";
import { erasedContext, erasedView, happenedBy, logContext, momentOf, orderIdOf, toAuditEvent } from "./audit-events.ts";
import { scanLog } from "./audit-log-scan.ts";

/*
 * The audit's questions across streams (CARD-4): a folder as it stood at a past moment, and what
 * one staff member did in a time range. Both replay the whole log (see audit-log-scan.ts for the
 * scale), never today's read models: a folder at a moment is folded through the same pure
 * `evolveQueueRow` and `isInFolder` the queue projection and its SQL follow.
 */

const QUEUE_AT_PAGE_SIZE = 25;

const STAFF_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Newest first, as the queues list: by creation time, then by order id (numerically). */
const newestFirst = (a: QueueRow, b: QueueRow) =>
  b.createdAt.localeCompare(a.createdAt) || b.orderId.length - a.orderId.length || b.orderId.localeCompare(a.orderId);

const rowAt = (row: QueueRow): QueueAtRow => ({
  orderId: row.orderId,
  status: row.status,
  statusLabel: statusLabel(row.status),
  createdAt: row.createdAt,
  // An erased order's row keeps its place in the folder and the count, without the person.
  name: fullName(row.firstName, row.middleName, row.lastName),
  email: row.email,
  landingDomain: row.landingDomain,
  processingDate: row.processingDate,
  assigneeName: row.assigneeName,
});

export const auditLogHandlers = (deps: ApiDeps) =>
  ({
    getFolderAsOf: async ({ params, input, user }) => {
      const name = params.folder;
      const folder = queueKeyOf(name);
      if (folder === undefined) return fail(404, `There is no folder named "${name.slice(0, 100)}".`);
      const at = momentOf(input.at);
      const rows = new Map<string, QueueRow>();
      // A stream is folded up to its first event after the moment, like the order's as-of.
      const past = new Set<string>();
      // The policies set so far, as the queue projection keeps them (its rows hold the clock).
      const policies: ServiceLevelPolicySet[] = [];
      await scanLog(deps.store, (raw, event) => {
        if (event.type === "ServiceLevelPolicySet" && happenedBy(event, at.ms)) policies.push(event);
        if (!isOrderEvent(event) || past.has(raw.streamId)) return;
        if (!happenedBy(event, at.ms)) {
          past.add(raw.streamId);
          return;
        }
        const row = evolveQueueRow(rows.get(raw.streamId), event, policies);
        if (row !== undefined) rows.set(raw.streamId, row);
      });
      // "Today" is the moment's own UTC day: a future order became due then, not now. My Orders
      // is the asking member's unless another member's id is given.
      const viewer = { today: at.iso.slice(0, 10), staffId: input.staffId ?? user.id };
      const inFolder = [...rows.values()].filter((row) => isInFolder(folder, row, viewer)).sort(newestFirst);
      const page = input.page === undefined ? 1 : Number(input.page);
      const answer: QueueAtMoment = {
        at: at.iso,
        folder,
        count: inFolder.length,
        page,
        pageSize: QUEUE_AT_PAGE_SIZE,
        rows: inFolder.slice((page - 1) * QUEUE_AT_PAGE_SIZE, page * QUEUE_AT_PAGE_SIZE).map(rowAt),
      };
      return ok("The folder as it stood at the moment.", answer);
    },
    getStaffActivity: async ({ params, input }) => {
      const { staffId } = params;
      const notFound = fail(404, `Staff member ${staffId.slice(0, 64)} was not found.`);
      if (!STAFF_ID.test(staffId)) return notFound;
      // A member removed since still has a stream, and their activity is still theirs.
      if ((await deps.store.readStream(staffStream(staffId as StaffId), { to: 1n })).length === 0) return notFound;
      const [from, to] = [momentOf(input.from), momentOf(input.to)];
      const context = logContext();
      const found: { line: AuditEvent; raw: RecordedEvent; event: AnyEvent; context: AuditContext }[] = [];
      const erasedOrders = new Set<string>();
      let matched = 0;
      await scanLog(deps.store, (raw, event) => {
        const { actor } = event.metadata;
        const at = Date.parse(event.metadata.occurredAt);
        if (actor.kind === "staff" && actor.id === staffId && at >= from.ms && at <= to.ms) {
          matched++;
          // The sentence is told as the log stood before the event, so it is written now.
          const told = context.contextFor(event);
          if (found.length < STAFF_ACTIVITY_LIMIT) found.push({ line: toAuditEvent(raw, event, told), raw, event, context: told });
        }
        context.step(event);
        if (event.type === "OrderPermanentlyDeleted") erasedOrders.add(event.data.orderId);
      });
      // An order deleted permanently later in the log reads as erased here too, as in its own
      // history: the line is told again from the erased event, naming no document.
      const events = found.map(({ line, raw, event, context: told }) => {
        const orderId = orderIdOf(event);
        return orderId !== null && erasedOrders.has(orderId) ? toAuditEvent(raw, erasedView(event), erasedContext(told)) : line;
      });
      const answer: StaffActivity = { staffId, from: from.iso, to: to.iso, events, truncated: matched > STAFF_ACTIVITY_LIMIT };
      return ok("The staff member's activity.", answer);
    },
  }) satisfies Partial<Handlers>;
