import { Schema } from "effect";
import type { EventId } from "@etd/events";
import { statusOf } from "../vocabulary.ts";
import { expectedVersionField, flag, MAIL_PROVIDER_MESSAGE, MailProviderField, orderIdField, orderIdList, requiredEmail, requiredText } from "./fields.ts";

/*
 * The order commands of 000 §7 and 001 §7, at the paths the existing client calls. Where the specs
 * do not show a payload, the choice is recorded in docs/decisions/0003-command-api.md.
 */

export const ChangeOrderStatusRequest = Schema.Struct({
  orderId: orderIdList,
  updatingStatus: Schema.String.check(
    Schema.makeFilter((s: string) => statusOf(s) !== undefined || "Please choose a valid status."),
  ).pipe(Schema.annotateKey({ messageMissingKey: "Please choose a valid status." })),
  permanentDeletedFlag: Schema.optionalKey(Schema.Union([Schema.Boolean, Schema.Literals(["true", "false", 0, 1])])),
  /** From the order page, with one order id (ADR 0014). */
  expectedVersion: expectedVersionField,
});

/** Whether change-order-status asks for a permanent delete. */
export const isPermanentDelete = (value: boolean | string | number | undefined): boolean => value === true || value === "true" || value === 1;

export const AssignOrderRequest = Schema.Struct({
  orderId: orderIdList,
  /** The client sends the signed-in user's name; the server assigns to the signed-in user whatever it says. */
  assignto: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number, Schema.Null])),
});

export const OrderIdsRequest = Schema.Struct({ orderId: orderIdList, expectedVersion: expectedVersionField });

export const AddRemarkRequest = Schema.Struct({
  orderId: orderIdField(),
  remark: requiredText("Please enter your remark", 5000),
  remarkerName: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  whatsapp: flag,
  telephone: flag,
  statusRefund: flag,
  voided: flag,
  chargeBack: flag,
  reportError: flag,
  /** Checked when a flag that moves the order is ticked (ADR 0014). */
  expectedVersion: expectedVersionField,
});

export const ResendMailRequest = Schema.Struct({
  orderId: orderIdField(),
  email: requiredEmail("Please enter your email", "Please enter a valid email."),
  mailServiceProvider: MailProviderField,
});

export const SendInvoiceRequest = Schema.Struct({
  orderId: orderIdField(),
  email: Schema.optionalKey(requiredEmail("Please enter your email", "Please enter a valid email.")),
  mailServiceProvider: MailProviderField,
});

const MAIL_ID_MESSAGE = "Please choose a mail from Email History.";

/**
 * Retry on a failed mail, or one whose outcome is unknown (ORDER-2, DESIGN §8). `mailId` is the
 * Email History row's `id`: the id of the event that asked for the mail, a UUID.
 */
const mailIdField = Schema.String.check(
  Schema.makeFilter((s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s.trim()) || MAIL_ID_MESSAGE),
).pipe(Schema.annotateKey({ messageMissingKey: MAIL_ID_MESSAGE }));

export const RetryMailRequest = Schema.Struct({ orderId: orderIdField(), mailId: mailIdField });

/** View Email Content (ORDER-12): the mail as it was sent. */
export const MailIdParam = Schema.Struct({ mailId: mailIdField });

/** Only after RetryMailRequest has checked the form: the event id as the mail stream names it. */
export const toMailId = (value: string): EventId => value.trim().toLowerCase() as EventId;

export const TransactionDetailsRequest = Schema.Struct({
  orderId: orderIdField(),
  transactionId: requiredText("Please enter your Transaction Id", 200),
  merchantName: requiredText("Please enter your Merchant Name", 200),
});

/**
 * The upload form's text fields (ORDER-3, multipart); the file is `uploadVisaDoc`. An empty
 * provider means the default, as a form whose select was left alone sends it.
 */
export const UploadDocumentFields = Schema.Struct({
  orderId: Schema.String,
  email: requiredEmail("Please enter your email", "Please enter a valid email."),
  mailServiceProvider: Schema.optionalKey(
    Schema.String.check(Schema.makeFilter((s: string) => /^\s*(aws|sendgrid)?\s*$/i.test(s) || MAIL_PROVIDER_MESSAGE)),
  ),
  expectedVersion: expectedVersionField,
});

const PACK_TYPE_MESSAGE = "Please choose defence pack 1 or 2.";

/** 001 §7: which chargeback defence pack to render, 1 or 2. */
export const DefencePackPdfRequest = Schema.Struct({
  orderId: orderIdField(),
  defencePackType: Schema.Union([Schema.String, Schema.Number])
    .check(Schema.makeFilter((v: string | number) => v === 1 || v === 2 || v === "1" || v === "2" || PACK_TYPE_MESSAGE))
    .pipe(Schema.annotateKey({ messageMissingKey: PACK_TYPE_MESSAGE })),
});

export const packTypeOf = (value: string | number): 1 | 2 => (String(value) === "2" ? 2 : 1);

export const DefencePackDetailsRequest = Schema.Struct({ orderId: orderIdField() });

/** The order page says it is open (every `heartbeatMs`), or closing (`leaving`). `viewId` is the page's own random id. */
export const OrderPresenceRequest = Schema.Struct({
  orderId: orderIdField(),
  viewId: Schema.String.check(Schema.makeFilter((s: string) => /^[A-Za-z0-9_-]{8,64}$/.test(s) || "Please send the page's view id.")),
  leaving: Schema.optionalKey(Schema.Boolean),
});
