import * as Schema from "effect/Schema";
import type { EventId, OrderId } from "@etd/events";
import type { SelectedOrder } from "../answers.ts";
import { UUID_PATTERN } from "../rules.ts";
import { ORDER_STATUSES, statusOf, type OrderStatus } from "../vocabulary.ts";
import {
  expectedVersionField,
  flag,
  MAIL_PROVIDER_MESSAGE,
  MAIL_PROVIDERS,
  MailProviderField,
  orderIdField,
  requiredEmail,
  requiredText,
  toOrderId,
  toOrderIds,
} from "./fields.ts";
import { blankOr, matches, maxCharacters, oneOf, padded } from "@etd/events/checks";
import { MAX_SELECTED_ORDERS } from "./queries.ts";

/*
 * The order commands of 000 §7 and 001 §7, at the paths the existing client calls. Where the specs
 * do not show a payload, the choice is recorded in docs/decisions/0003-command-api.md.
 */

/*
 * Select all across pages (issue 16). A bulk action names at most a page of orders (500), or, with
 * `asSelected`, up to the orders select-all-orders answered: then each order id comes with the
 * status and assignee the member saw, once each, and the order decider refuses any order that
 * moved on since. Orders not named are never touched, so a set that grew is not extended.
 */

/** The most orders one page shows, so the most one bulk action without `asSelected` names. */
const MAX_PAGE_OF_ORDERS = 500;
const SELECTION_MISMATCH = "asSelected must name each order once.";
const SELECT_MESSAGE = "Please select at least one order.";

/** One id or a list, as 000 §7 sends them; the count is checked with `asSelected` in mind (below). */
const bulkOrderIds = Schema.Union([
  orderIdField(SELECT_MESSAGE),
  Schema.Array(orderIdField(SELECT_MESSAGE)).check(
    Schema.isMinLength(1, { message: SELECT_MESSAGE }),
    Schema.isMaxLength(MAX_SELECTED_ORDERS, { message: `At most ${MAX_SELECTED_ORDERS.toLocaleString("en-US")} orders can be changed at once.` }),
  ),
]).pipe(Schema.annotateKey({ messageMissingKey: SELECT_MESSAGE }));

/** The contract's SelectedOrder as a bulk request sends it back (the id may come as a number). */
const SelectedOrderEntry = Schema.Struct({
  orderId: orderIdField(),
  process_status: Schema.String.check(oneOf<string>(ORDER_STATUSES, `process_status must be one of ${ORDER_STATUSES.join(", ")}.`)),
  assign_to_id: Schema.NullOr(Schema.String.check(Schema.isMinLength(1), maxCharacters(100))),
});

const asSelectedField = Schema.optionalKey(
  Schema.Array(SelectedOrderEntry).check(
    Schema.isMaxLength(MAX_SELECTED_ORDERS, { message: `At most ${MAX_SELECTED_ORDERS.toLocaleString("en-US")} orders can be selected at once.` }),
  ),
);

type BulkOrderIds = string | number | readonly (string | number)[];
type SelectedEntry = typeof SelectedOrderEntry.Type;

/** Without `asSelected`: a page of orders at most. With it: exactly the orders sent, each once. */
const selectionMatches = Schema.makeFilter(
  (request: { readonly orderId: BulkOrderIds; readonly asSelected?: readonly SelectedEntry[] }) => {
    const { orderId, asSelected } = request;
    if (asSelected === undefined) {
      return !Array.isArray(orderId) || orderId.length <= MAX_PAGE_OF_ORDERS || {
        path: ["orderId"],
        issue: `At most ${MAX_PAGE_OF_ORDERS} orders can be changed at once.`,
      };
    }
    const sent = new Set(toOrderIds(orderId));
    const named = new Set(asSelected.map((entry) => toOrderId(entry.orderId)));
    const once = named.size === asSelected.length && named.size === sent.size && [...named].every((id) => sent.has(id));
    return once || SELECTION_MISMATCH;
  },
);

/** Only after a bulk request's schema has checked it: each order as selected, by order id. */
export const selectedOrdersOf = (asSelected: readonly SelectedEntry[] | undefined): ReadonlyMap<OrderId, SelectedOrder> | undefined =>
  asSelected === undefined
    ? undefined
    : new Map(
        asSelected.map((entry) => {
          const orderId = toOrderId(entry.orderId);
          return [orderId, { orderId, process_status: entry.process_status as OrderStatus, assign_to_id: entry.assign_to_id }] as const;
        }),
      );

export const ChangeOrderStatusRequest = Schema.Struct({
  orderId: bulkOrderIds,
  updatingStatus: Schema.String.check(
    Schema.makeFilter((s: string) => statusOf(s) !== undefined || "Please choose a valid status."),
  ).pipe(Schema.annotateKey({ messageMissingKey: "Please choose a valid status." })),
  permanentDeletedFlag: Schema.optionalKey(Schema.Union([Schema.Boolean, Schema.Literals(["true", "false", 0, 1])])),
  /** From the order page, with one order id (ADR 0014). */
  expectedVersion: expectedVersionField,
  asSelected: asSelectedField,
}).check(selectionMatches);

/** Whether change-order-status asks for a permanent delete. */
export const isPermanentDelete = (value: boolean | string | number | undefined): boolean => value === true || value === "true" || value === 1;

export const AssignOrderRequest = Schema.Struct({
  orderId: bulkOrderIds,
  /** The client sends the signed-in user's name; the server assigns to the signed-in user whatever it says. */
  assignto: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number, Schema.Null])),
  asSelected: asSelectedField,
}).check(selectionMatches);

/** Move to Original Folder (QUEUE-10) and Refunded it (QUEUE-11). */
export const OrderIdsRequest = Schema.Struct({ orderId: bulkOrderIds, expectedVersion: expectedVersionField, asSelected: asSelectedField }).check(
  selectionMatches,
);

export const AddRemarkRequest = Schema.Struct({
  orderId: orderIdField(),
  remark: requiredText("Please enter your remark", 5000),
  remarkerName: Schema.optionalKey(Schema.String.check(maxCharacters(200))),
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
const mailIdField = Schema.String.check(matches(padded(UUID_PATTERN), MAIL_ID_MESSAGE)).pipe(Schema.annotateKey({ messageMissingKey: MAIL_ID_MESSAGE }));

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
  mailServiceProvider: Schema.optionalKey(Schema.String.check(matches(blankOr(MAIL_PROVIDERS), MAIL_PROVIDER_MESSAGE))),
  expectedVersion: expectedVersionField,
});

const PACK_TYPE_MESSAGE = "Please choose defence pack 1 or 2.";

/** 001 §7: which chargeback defence pack to render, 1 or 2. */
export const DefencePackPdfRequest = Schema.Struct({
  orderId: orderIdField(),
  defencePackType: Schema.Union([Schema.String, Schema.Number])
    .check(oneOf<string | number>([1, 2, "1", "2"], PACK_TYPE_MESSAGE))
    .pipe(Schema.annotateKey({ messageMissingKey: PACK_TYPE_MESSAGE })),
});

export const packTypeOf = (value: string | number): 1 | 2 => (String(value) === "2" ? 2 : 1);

export const DefencePackDetailsRequest = Schema.Struct({ orderId: orderIdField() });

/** The order page says it is open (every `heartbeatMs`), or closing (`leaving`). `viewId` is the page's own random id. */
export const OrderPresenceRequest = Schema.Struct({
  orderId: orderIdField(),
  viewId: Schema.String.check(matches(/^[A-Za-z0-9_-]{8,64}$/, "Please send the page's view id.")),
  leaving: Schema.optionalKey(Schema.Boolean),
});
