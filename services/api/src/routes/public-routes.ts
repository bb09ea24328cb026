import { Result, Schema } from "effect";
import { orderStream, type OrderId } from "@etd/events";
import { loadStream, orderDecider, type PlacedOrder } from "@etd/write";
import type { ApiDeps } from "../api-deps.ts";
import { replyTo, runOrderCommand } from "../commands/run-command.ts";
import type { Endpoint } from "../http/endpoint.ts";
import { requiredText } from "../http/fields.ts";
import { decodeInput, fail, ok } from "../http/reply.ts";

/*
 * The traveller's side (PUBLIC-1, PUBLIC-2, DESIGN §6). A traveller proves who they are with the
 * order id and the e-mail of the application, both matching; a wrong id and a wrong e-mail get
 * the same answer, so the page cannot be used to find out which orders exist. Failed lookups are
 * throttled per address like sign-ins.
 */

const NOT_FOUND = "We could not find an order with this Order ID and Email ID.";

export const TrackOrderRequest = Schema.Struct({
  orderId: requiredText("Please enter your orderId", 40),
  email: requiredText("Please enter your email", 254),
});

export const DownloadDocumentRequest = Schema.Struct({
  orderId: requiredText("Please enter your orderId", 40),
  customername: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(300))),
  file1: requiredText("The document was not found.", 300),
});

const loadOrder = async (deps: ApiDeps, orderId: string): Promise<PlacedOrder | undefined> => {
  if (!/^\d{6,20}$/.test(orderId)) return undefined;
  const { state } = await loadStream(deps.store, orderStream(orderId as OrderId), orderDecider);
  return state.exists && !state.permanentlyDeleted ? state : undefined;
};

/** What the download history shows of the device (PUBLIC-2), read from the browser's user agent. */
export const describeDevice = (userAgent: string | undefined) => {
  const ua = userAgent ?? "";
  const browser = /Edg\//.test(ua) ? "Edge" : /OPR\//.test(ua) ? "Opera" : /Chrome\//.test(ua) ? "Chrome" : /Firefox\//.test(ua) ? "Firefox" : /Safari\//.test(ua) ? "Safari" : "Other";
  const os = /Windows/.test(ua) ? "Windows" : /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Mac OS X/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "Other";
  const deviceType = /iPad|Tablet/.test(ua) ? "Tablet" : /Mobi|iPhone|Android/.test(ua) ? "Mobile" : "Desktop";
  const device = /iPhone/.test(ua) ? "iPhone" : /iPad/.test(ua) ? "iPad" : /Android/.test(ua) ? "Android device" : "Computer";
  return { browser, os, deviceType, device };
};

export const publicEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "post",
    path: "/front/track-order",
    guard: "public",
    readOnly: true,
    summary: "Find an order by its id and the application's e-mail (PUBLIC-1)",
    body: TrackOrderRequest,
    handle: async ({ req, ip }) => {
      const input = decodeInput(TrackOrderRequest, req.body);
      if (Result.isFailure(input)) return input.failure;
      const orderId = input.success.orderId.trim();
      const email = input.success.email.trim().toLowerCase();
      const waitMs = deps.trackThrottle.retryAfterMs(orderId, ip);
      if (waitMs > 0) {
        return fail(429, `Too many attempts. Please try again in ${Math.max(1, Math.ceil(waitMs / 60_000))} minutes.`);
      }
      const order = await loadOrder(deps, orderId);
      if (!order || order.email?.toLowerCase() !== email) {
        deps.trackThrottle.recordFailure(orderId, ip);
        return fail(404, NOT_FOUND);
      }
      return ok("Your order has been found.", { orderId: order.orderId, documentReady: order.document !== undefined });
    },
  },
  {
    method: "post",
    path: "/front/download-passport-doc-pdf",
    guard: "public",
    summary: "Record a download of the finished document and answer its link (PUBLIC-2)",
    body: DownloadDocumentRequest,
    handle: async ({ req, ip, requestId }) => {
      const input = decodeInput(DownloadDocumentRequest, req.body);
      if (Result.isFailure(input)) return input.failure;
      const orderId = input.success.orderId.trim();
      if (!/^\d{6,20}$/.test(orderId)) return fail(404, "The document was not found.");
      const ran = await runOrderCommand(deps, { user: undefined, requestId, ip }, {
        type: "RecordDownload",
        orderId: orderId as OrderId,
        fileName: input.success.file1.trim(),
        ip,
        timezone: "EST",
        ...describeDevice(req.get("user-agent")),
      });
      const reply = replyTo(ran, "Your download will start shortly.");
      if (!ran.ok) return reply;
      const link = `/uploads/docs/${orderId}/${encodeURIComponent(input.success.file1.trim())}`;
      return ok(reply.body.message, { ...(reply.body.data as object), link });
    },
  },
];
