import { StaffId, orderStream, type EventId, type OrderId } from "@etd/events";
import { generateDemoOrders } from "@etd/demo";
import { decodePlaceOrderRequest, handleCommand, orderDecider, type ActingStaff, type OrderCommand } from "@etd/write";
import * as Result from "effect/Result";
import type { Runtime } from "../../src/runtime.ts";

/*
 * Mail requests straight into the log, as staff's uploads and resends would leave them, without
 * HTTP or projections in the way: for the crash test (R10) and the mail benchmark (P10).
 */

export const MAIL_STAFF: ActingStaff = { id: StaffId.make("mail-test-manager"), name: "Maria Santos", role: "Manager" };

export interface MailRequestRef {
  readonly orderId: OrderId;
  readonly mailId: EventId;
}

/** `orders` orders, each with an upload and `perOrder - 1` resends through `provider`. */
export const placeMailRequests = async (
  runtime: Runtime,
  { orders, perOrder, firstId, provider = "AWS" }: { orders: number; perOrder: number; firstId: number; provider?: "AWS" | "Sendgrid" },
): Promise<MailRequestRef[]> => {
  const { store } = runtime.deps;
  const actor = { kind: "staff" as const, id: MAIL_STAFF.id, name: MAIL_STAFF.name, role: MAIL_STAFF.role };
  const run = async (command: OrderCommand, orderId: OrderId) => {
    const outcome = await handleCommand(orderDecider, command, { store, streamId: orderStream(orderId), metadata: { actor, correlationId: "mail-requests" } });
    if (!outcome.ok) throw new Error(outcome.refusal.message);
  };
  const requests: MailRequestRef[] = [];
  for (const [i, body] of generateDemoOrders({ seed: firstId, count: orders, now: new Date() }).entries()) {
    const decoded = decodePlaceOrderRequest({ ...body, order_id: String(firstId + i) });
    if (Result.isFailure(decoded)) throw new Error(JSON.stringify(decoded.failure));
    const { orderId } = decoded.success;
    const to = `traveller${i}@example.com`;
    await run({ type: "PlaceOrder", ...decoded.success }, orderId);
    await run({ type: "UploadDocument", orderId, fileName: "etravel.pdf", storedPath: `docs/${orderId}/etravel.pdf`, contentType: "application/pdf", sizeBytes: 1000, actor: MAIL_STAFF, provider, to }, orderId);
    for (let n = 1; n < perOrder; n++) await run({ type: "ResendDocumentMail", orderId, provider, to, actor: MAIL_STAFF }, orderId);
    for (const event of await store.readStream(orderStream(orderId))) {
      if (event.type === "DocumentUploaded" || event.type === "DocumentMailResent") requests.push({ orderId, mailId: event.eventId as EventId });
    }
  }
  return requests;
};
