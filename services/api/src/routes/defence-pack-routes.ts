import type { GlobalPosition } from "@etd/event-store";
import { DEFENCE_PACK_RUNNING, isAllowed } from "@etd/contract";
import { packTypeOf, toOrderId } from "@etd/contract/requests";
import { orderStream, type OrderId } from "@etd/events";
import { orderDetailsProjection, waitForPosition } from "@etd/projections";
import { decideOrder, isRefusal, loadStream, orderDecider, type ActingStaff, type OrderState, type Refusal } from "@etd/write";
import type { ApiDeps, Caller } from "../api-deps.ts";
import type { SessionUser } from "../auth/tokens.ts";
import { actorOf, refusalReply, runOrderCommand } from "../commands/run-command.ts";
import type { Handlers } from "../http/endpoint.ts";
import { memberSlots } from "../http/member-slots.ts";
import { fail, fileReply, ok, type Reply } from "../http/reply.ts";
import { defencePackFileName, defencePackHtml, type DefencePackType } from "@etd/documents";
import { readAuditTimeline, readDefencePackEvidence } from "@etd/documents";
import { PdfUnavailable } from "@etd/pdf";
import { storageKey } from "@etd/storage";

/*
 * Chargeback defence packs (001 §2 and §7, ORDER-13).
 *
 * - POST /admin/get-defence-pack-pdf {orderId, defencePackType: 1|2}: the decider says first
 *   whether the order may have one (Completed, Customer Called or Chargeback), so a refused
 *   request costs no rendering; then the pack is rendered from the read model (once it has
 *   reached the stream's last event), stored under docs/{orderId}/, recorded as
 *   DefencePackGenerated, and answered as the PDF itself, inline, for the client's new window.
 *   A render holds a browser page and leaves a stored file and an event: a member has at most
 *   PACKS_AT_ONCE of them running (more are refused, DEFENCE_PACK_RUNNING), and the renderer
 *   itself renders a few at a time whoever asks (chromium-renderer.ts).
 * - POST /admin/defence-pack-details {orderId}: the evidence the packs are built from, which packs
 *   were generated, and whether one may be generated now. The spec shows no payload; this is ours.
 *   Every role may ask; only the roles that may read the audit ("audit.read": Admin, Manager) also
 *   get the order's audit timeline, as `timeline` (issue 9 item 5). The packs never hold it.
 */

const NOT_CAUGHT_UP = "The order's history is still being brought up to date. Please try again in a moment.";

/**
 * The decider's own answer to "may this member have a pack of this order?", without a file yet:
 * the status, and QUEUE-12's rule (someone else's order is read-only below Manager).
 */
const packRefusal = (orderId: OrderId, packType: DefencePackType, state: OrderState, actor: ActingStaff): Refusal | undefined => {
  // Stand-ins for the file the decision needs; nothing is recorded with them.
  const decision = decideOrder({ type: "RecordDefencePack", orderId, packType, fileName: "pending.pdf", storedPath: "pending.pdf", actor }, state);
  return isRefusal(decision) ? decision : undefined;
};

/** Defence packs one member may have rendering at once in this process: both types side by side. */
const PACKS_AT_ONCE = 2;

const lastSegment = (storedPath: string) => storedPath.slice(storedPath.lastIndexOf("/") + 1);

export const defencePackHandlers = (deps: ApiDeps) => {
  const slots = memberSlots(PACKS_AT_ONCE);
  /** The evidence as of the stream's last event: waits for the read model to reach it first. */
  const evidenceAt = async (orderId: OrderId, head: GlobalPosition | undefined) => {
    if (head === undefined) return fail(404, `Order ${orderId} was not found.`);
    if (!(await waitForPosition(deps.readDb, head, [orderDetailsProjection.name]))) return fail(503, NOT_CAUGHT_UP);
    return (await readDefencePackEvidence(deps.readDb.query, orderId)) ?? fail(503, NOT_CAUGHT_UP);
  };
  const isReply = (value: object): value is Reply => "httpStatus" in value;

  /** Renders the pack from the evidence as of `head`, stores it and records it; a refused record removes the file. */
  const renderAndRecord = async (context: Caller & { readonly user: SessionUser }, orderId: OrderId, packType: DefencePackType, head: GlobalPosition | undefined) => {
    const read = await evidenceAt(orderId, head);
    if (isReply(read)) return read;

    let pdf: Buffer;
    try {
      pdf = await deps.pdf.render(defencePackHtml(read.evidence, packType));
    } catch (error) {
      if (error instanceof PdfUnavailable) return fail(503, error.message);
      throw error;
    }

    const key = storageKey("docs", orderId, defencePackFileName(packType));
    if (!key) throw new Error(`no storage key for order ${orderId}`);
    const stored = await deps.storage.put(key, pdf);
    // A file nothing refers to is removed: the order changed status while the pack rendered,
    // or the log could not be written.
    let ran: Awaited<ReturnType<typeof runOrderCommand>>;
    try {
      ran = await runOrderCommand(deps, context, {
        type: "RecordDefencePack",
        orderId,
        packType,
        fileName: lastSegment(stored.storedPath),
        storedPath: stored.storedPath,
        actor: actorOf(context.user),
      });
    } catch (error) {
      await deps.storage.remove(stored.storedPath);
      throw error;
    }
    if (!ran.ok) {
      await deps.storage.remove(stored.storedPath);
      return refusalReply(ran.refusal);
    }
    return fileReply({ contentType: "application/pdf", body: pdf, fileName: `order-${orderId}-defence-pack-${packType}.pdf`, inline: true });
  };

  return {
    getDefencePackPdf: async (context) => {
      const orderId = toOrderId(context.input.orderId);
      const packType: DefencePackType = packTypeOf(context.input.defencePackType);
      const { state, head } = await loadStream(deps.store, orderStream(orderId), orderDecider);
      const refusal = packRefusal(orderId, packType, state, actorOf(context.user));
      if (refusal) return refusalReply(refusal);
      const free = slots.take(context.user.id);
      if (!free) return fail(429, DEFENCE_PACK_RUNNING);
      try {
        return await renderAndRecord(context, orderId, packType, head);
      } finally {
        free();
      }
    },
    getDefencePackDetails: async (context) => {
      const orderId = toOrderId(context.input.orderId);
      const { state, head } = await loadStream(deps.store, orderStream(orderId), orderDecider);
      if (!state.exists) return fail(404, `Order ${orderId} was not found.`);
      const read = await evidenceAt(orderId, head);
      if (isReply(read)) return read;
      const refusal = packRefusal(orderId, 1, state, actorOf(context.user));
      // The audit timeline is in the same read model, so it has reached the stream's head too.
      const audit = isAllowed(context.user.type, "audit.read") ? { timeline: await readAuditTimeline(deps.readDb.query, orderId) } : {};
      return ok("Defence pack details loaded.", {
        ...read.evidence,
        generatedPacks: read.packs,
        canGenerate: refusal === undefined,
        reason: refusal?.message ?? null,
        ...audit,
      });
    },
  } satisfies Partial<Handlers>;
};
