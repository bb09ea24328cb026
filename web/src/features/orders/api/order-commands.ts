import type { OrderChangedAnswer, OrderPresenceAnswer } from "@etd/contract";
import type {
  AddRemarkRequest,
  Body,
  ChangeOrderStatusRequest,
  OrderPresenceRequest,
  ResendMailRequest,
  RetryMailRequest,
  TransactionDetailsRequest,
} from "@etd/contract/requests";
import { apiRequest, type Envelope } from "../../../lib/api-client.ts";

/*
 * The order page's commands (001 §7), at the paths and with the payloads the existing client
 * sends. Decisive ones carry `expectedVersion`, the version the page shows (ADR 0014): if the
 * order moved on, the server changes nothing and answers OrderChangedAnswer.
 */

export type MailProviderChoice = "aws" | "sendgrid";

/** A refusal because the order changed since the page read it (HTTP 409, `data.changed`). */
export const changedAnswerOf = (answer: Envelope): OrderChangedAnswer | undefined => {
  const data = answer.data as Partial<OrderChangedAnswer> | null | undefined;
  return answer.status !== 1 && data?.changed === true && typeof data.version === "number" ? (data as OrderChangedAnswer) : undefined;
};

export const changeOrderStatus = (orderId: string, updatingStatus: string, expectedVersion: number) =>
  apiRequest("PUT", "/admin/change-order-status", {
    body: { orderId: [orderId], updatingStatus, permanentDeletedFlag: false, expectedVersion } satisfies Body<typeof ChangeOrderStatusRequest>,
  });

export interface RemarkInput {
  readonly remark: string;
  readonly whatsapp: boolean;
  readonly telephone: boolean;
  readonly statusRefund: boolean;
  readonly voided: boolean;
  readonly chargeBack: boolean;
  readonly reportError: boolean;
}

export const addRemark = (orderId: string, remark: RemarkInput, expectedVersion: number) =>
  apiRequest("POST", "/admin/add-new-remark", { body: { orderId, ...remark, expectedVersion } satisfies Body<typeof AddRemarkRequest> });

export const resendMail = (orderId: string, email: string, mailServiceProvider: MailProviderChoice) =>
  apiRequest("POST", "/admin/resend-mail", { body: { orderId, email, mailServiceProvider } satisfies Body<typeof ResendMailRequest> });

/** Retry on a failed mail, or one whose outcome is unknown (ORDER-2, issue 12). */
export const retryMail = (orderId: string, mailId: string) =>
  apiRequest("POST", "/admin/retry-mail", { body: { orderId, mailId } satisfies Body<typeof RetryMailRequest> });

export const sendReminderMail = (orderId: string, email: string, mailServiceProvider: MailProviderChoice) =>
  apiRequest("POST", "/admin/send-reminder-mail", { body: { orderId, email, mailServiceProvider } satisfies Body<typeof ResendMailRequest> });

export const saveTransactionDetails = (orderId: string, transactionId: string, merchantName: string) =>
  apiRequest("POST", "/admin/save-transaction-details", { body: { orderId, transactionId, merchantName } satisfies Body<typeof TransactionDetailsRequest> });

/** ORDER-3: multipart, the file as `uploadVisaDoc`. */
export const uploadVisaDocument = (orderId: string, email: string, file: File, mailServiceProvider: MailProviderChoice, expectedVersion: number) => {
  const form = new FormData();
  form.set("orderId", orderId);
  form.set("email", email);
  form.set("mailServiceProvider", mailServiceProvider);
  form.set("expectedVersion", String(expectedVersion));
  form.set("uploadVisaDoc", file);
  return apiRequest("POST", "/admin/upload-visa-document", { form });
};

export const sendPresence = (orderId: string, viewId: string) =>
  apiRequest<OrderPresenceAnswer | null>("POST", "/admin/order-presence", { body: { orderId, viewId } satisfies Body<typeof OrderPresenceRequest> });
