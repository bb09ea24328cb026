import { NO_ORDER_WITH_ID, TRACK_FIRST } from "../answers.ts";
import { DEFENCE_PACK_RUNNING, MAX_VIEWS_PER_STAFF, type MailContentAnswer, type OrderDetails, type OrderPresenceAnswer } from "../order-page.ts";
import type { PublicDownloadEntry } from "../public-page.ts";
import { answer, endpoints, ORDER_COMMAND_ANSWERS, PUBLIC_RATE_LIMITED, withAnswers } from "./declare.ts";
import type { CommandAnswer } from "./orders.ts";

/** The order page's reads and files: its details, mail, uploads, defence packs, presence and the download history. */
export const ORDER_PAGE = endpoints({
  getOrderDetails: {
    method: "get",
    path: "/admin/get-orders-details/:orderId",
    guard: "orders.read",
    summary: "One order for the detail page: its fields, Email History, current document, Download History, comments and transaction details (ORDER-1..9)",
    params: "OrderIdParam",
    reads: ["order_details"],
    data: answer<OrderDetails>(),
    answers: { 404: "The order does not exist" },
  },
  getDownloadHistory: {
    method: "post",
    path: "/front/get-download-history",
    guard: "public",
    summary: "With the order's grant from track-order: the public download page's downloads of the document, the order's greeting and the current file (PUBLIC-2)",
    body: "DownloadHistoryRequest",
    readOnly: true,
    reads: ["order_details"],
    // `mainResult` and `path` sit beside it, at the top level (PublicDownloadHistory); refusals too have the page's five keys.
    data: answer<readonly PublicDownloadEntry[]>(),
    answers: withAnswers(PUBLIC_RATE_LIMITED, {
      403: TRACK_FIRST,
      404: NO_ORDER_WITH_ID,
    }),
  },
  retryMail: {
    method: "post",
    path: "/admin/retry-mail",
    guard: "order.mail",
    summary: "Retry on a failed mail, or one whose outcome is unknown: the mail reactor sends it again (ORDER-2, issue 12)",
    body: "RetryMailRequest",
    changes: ["order_details"],
    data: answer<CommandAnswer>(),
    answers: {
      ...ORDER_COMMAND_ANSWERS,
      400: "The mail is not one that failed or whose outcome is unknown (the decider's message)",
      404: "The mail or its order does not exist",
      409: "The mail is being sent again already",
    },
  },
  getMailContent: {
    method: "get",
    path: "/admin/mail-content/:mailId",
    guard: "orders.read",
    summary: "View Email Content: the mail's last attempt as it was handed to the provider (ORDER-12, issue 12)",
    params: "MailIdParam",
    // The content is kept sealed in the attempt's event only: read from the log, which is always current.
    reads: [],
    data: answer<MailContentAnswer>(),
    answers: { 404: "The mail's content is not available: never attempted, or erased with its order" },
  },
  uploadVisaDocument: {
    method: "post",
    path: "/admin/upload-visa-document",
    guard: "order.upload-document",
    summary: "Upload the finished document (PDF or image, multipart) and have it mailed (ORDER-3)",
    form: { fields: "UploadDocumentFields", file: "uploadVisaDoc" },
    readsInputItself: true,
    changes: ["queue", "order_details", "reports"],
    data: answer<CommandAnswer>(),
    answers: {
      ...ORDER_COMMAND_ANSWERS,
      400: "The form is not a valid multipart form, a field is missing or not valid, or the file is missing",
      413: "The file is larger than the upload limit (MAX_UPLOAD_MB)",
      415: "The file is not a PDF or an image, by its first bytes",
    },
  },
  getDefencePackPdf: {
    method: "post",
    path: "/admin/get-defence-pack-pdf",
    guard: "order.defence-pack",
    summary:
      "Render, store and record a chargeback defence pack (1: transaction and service evidence, 2: plus the service timeline and comments; never the audit); answers the PDF inline (ORDER-13)",
    body: "DefencePackPdfRequest",
    file: "application/pdf",
    changes: ["order_details"],
    answers: {
      ...ORDER_COMMAND_ANSWERS,
      429: DEFENCE_PACK_RUNNING,
      503: "The order's history is still being brought up to date, or the PDF renderer is not available: try again in a moment",
    },
  },
  getDefencePackDetails: {
    method: "post",
    path: "/admin/defence-pack-details",
    guard: "order.defence-pack",
    summary:
      "The evidence the defence packs are built from, the packs generated so far, and whether one may be generated now; the audit timeline for Admin and Manager only (ORDER-13)",
    body: "DefencePackDetailsRequest",
    readOnly: true,
    // It also waits, itself, for the read model to reach the order's last event.
    reads: ["order_details"],
    answers: {
      404: "The order does not exist",
      503: "The order's history is still being brought up to date: try again in a moment",
    },
  },
  sendOrderPresence: {
    method: "post",
    path: "/admin/order-presence",
    guard: "orders.read",
    summary: "The order page is open (heartbeat every 3 s) or closing (`leaving`): answers the other pages that have the order open (issue 11)",
    body: "OrderPresenceRequest",
    // A table beside the read models, and no event: nothing for a later read to wait for.
    changes: [],
    data: answer<OrderPresenceAnswer>(),
    answers: {
      404: "The order does not exist",
      409: "The view id is another member's page",
      429: `The member has more than ${String(MAX_VIEWS_PER_STAFF)} order pages open`,
    },
  },
});
