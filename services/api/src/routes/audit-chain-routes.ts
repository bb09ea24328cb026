import { EXPORT_RUNNING, type ChainVerification } from "@etd/contract";
import { exportFile, exportRange, exportStreams, orderStreams, verifyStoredChain, type ChainReport } from "@etd/event-store";
import { orderStream } from "@etd/events";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers, StaffRequest } from "../http/endpoint.ts";
import { streamInSlot, type MemberSlots } from "../http/member-slots.ts";
import { fail, fileReply, ok } from "../http/reply.ts";
import { momentOf, orderIdIn } from "./audit-events.ts";

/*
 * Tamper evidence in the Audit area (issue 14, ADR 0021): the log's verification behind the
 * badge, and the exports an auditor verifies offline (`npm run audit:verify -- --file`). Admin and
 * Manager only ("audit.read"), like every audit call. An export reads and hashes every event of its
 * range, so it takes one of the member's export slots (member-slots.ts) until its reads are over.
 */

export const auditChainHandlers = (deps: ApiDeps, slots: MemberSlots) => {
  // A walk reads the whole log: callers at the same time share one walk instead of each starting
  // their own, so pressing Verify repeatedly costs the database one walk at a time.
  let walking: Promise<{ report: ChainReport; millis: number; at: Date }> | undefined;
  const verify = () =>
    (walking ??= (async () => {
      const started = performance.now();
      try {
        const report = await verifyStoredChain(deps.readDb);
        return { report, millis: Math.round(performance.now() - started), at: deps.now() };
      } finally {
        walking = undefined;
      }
    })());

  /** The export's lines as the answer's body, within one of the member's slots until its reads are over. */
  const inSlot = async (user: StaffRequest["user"], fileName: string, lines: () => Promise<AsyncIterable<string>>) => {
    const free = slots.take(user.id);
    if (!free) return fail(429, EXPORT_RUNNING);
    try {
      return fileReply({ contentType: "application/x-ndjson", body: streamInSlot(await lines(), free), fileName });
    } catch (error) {
      free();
      throw error;
    }
  };

  return {
    verifyLog: async () => {
      const { report, millis, at } = await verify();
      const answer: ChainVerification = {
        ok: report.firstBreak === undefined,
        checked: report.checked,
        sealed: report.sealed,
        firstBreak: report.firstBreak ?? null,
        headHash: report.head,
        verifiedAt: at.toISOString(),
        millis,
      };
      return ok(answer.ok ? "The log is intact." : "The log does not match its hashes.", answer);
    },
    exportOrderLog: async ({ params, user }) => {
      const orderId = orderIdIn(params.orderId);
      const stream = orderId && orderStream(orderId);
      const [first] = stream ? await deps.readDb.query(`select 1 from es_events where stream_id = $1 limit 1`, [stream]) : [];
      if (!orderId || !stream || !first) return fail(404, `Order ${params.orderId} was not found.`);
      return inSlot(user, `order-${orderId}.jsonl`, async () =>
        exportFile({ scope: "order", orderId }, deps.now(), exportStreams(deps.readDb, await orderStreams(deps.readDb, stream))),
      );
    },
    exportLogRange: async ({ input, user }) => {
      const [from, to] = [momentOf(input.from).iso, momentOf(input.to).iso];
      return inSlot(user, `log-${from}-${to}.jsonl`.replaceAll(":", ""), async () => exportFile({ scope: "log", from, to }, deps.now(), exportRange(deps.readDb, from, to)));
    },
  } satisfies Partial<Handlers>;
};
