import { isMailEvent, isOrderEvent } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import { foldAudit, type AuditRow } from "./order-details-fold-audit.ts";
import { foldComments, type CommentRow } from "./order-details-fold-comments.ts";
import { foldDownloads, type DownloadRow } from "./order-details-fold-downloads.ts";
import { foldMails, type MailRow } from "./order-details-fold-mails.ts";
import { foldNames, gatewayRef, staffRef, type NameRow } from "./order-details-fold-names.ts";
import { foldOrders, type OrderDetailsRow } from "./order-details-fold-orders.ts";

/*
 * The pure half of the projection: one batch of events folded in memory over the rows the batch
 * needs, answering the rows to write back. No SQL here, so the rules are testable without a
 * database and a batch touches each row once however many events it holds.
 *
 * One fold per table (order-details-fold-<table>.ts); this module says what a batch must load and
 * steps the folds through each event in the order their reads need.
 *
 * Rows are written with the columns' own snake_case names.
 */

export type { AuditRow } from "./order-details-fold-audit.ts";
export type { CommentRow } from "./order-details-fold-comments.ts";
export type { DownloadRow } from "./order-details-fold-downloads.ts";
export type { MailRow } from "./order-details-fold-mails.ts";
export type { NameRow } from "./order-details-fold-names.ts";
export type { OrderDetailsRow } from "./order-details-fold-orders.ts";

/** What a batch needs read from the tables before it can be folded. */
export interface BatchNeeds {
  /** Orders whose stream has events in the batch. */
  readonly orderIds: readonly string[];
  /** Mails whose stream has events in the batch: their rows, by primary key. */
  readonly mailIds: readonly string[];
  readonly nameRefs: readonly string[];
}

export interface LoadedRows {
  readonly orders: readonly OrderDetailsRow[];
  /** The rows of `mailIds` that earlier batches wrote. */
  readonly mails: readonly MailRow[];
  readonly names: readonly NameRow[];
}

export interface BatchChanges {
  readonly orders: readonly OrderDetailsRow[];
  readonly mails: readonly MailRow[];
  readonly downloads: readonly DownloadRow[];
  readonly comments: readonly CommentRow[];
  readonly audit: readonly AuditRow[];
  readonly names: readonly NameRow[];
  /**
   * Orders permanently deleted in this batch: their older history rows lose their personal values,
   * and their older audit lines take their erased sentences.
   */
  readonly erasedOrders: readonly string[];
}

export const batchNeeds = (events: readonly ProjectedEvent[]): BatchNeeds => {
  const orderIds = new Set<string>();
  const mailIds = new Set<string>();
  const nameRefs = new Set<string>();
  for (const { event } of events) {
    if (isOrderEvent(event)) {
      orderIds.add(event.data.orderId);
    } else if (isMailEvent(event)) {
      // Not the order's row: a mail's events carry its order id but are not the order's events,
      // and must not move the order's version (the page's expectedVersion).
      mailIds.add(event.data.mailId);
    } else if (event.type === "StaffMemberUpdated" || event.type === "StaffMemberDeleted" || event.type === "PasswordChanged" || event.type === "TwoFactorReset") {
      nameRefs.add(staffRef(event.data.staffId));
    } else if (event.type === "GatewaySelected") {
      nameRefs.add(gatewayRef(event.data.gatewayId));
      if (event.data.previousGatewayId !== undefined) nameRefs.add(gatewayRef(event.data.previousGatewayId));
    }
  }
  return { orderIds: [...orderIds], mailIds: [...mailIds], nameRefs: [...nameRefs] };
};

/** Folds one batch. `loaded` holds the rows `batchNeeds` asked for; nothing else is read. */
export const foldBatch = (events: readonly ProjectedEvent[], loaded: LoadedRows): BatchChanges => {
  const orders = foldOrders(loaded.orders);
  const names = foldNames(loaded.names);
  const mails = foldMails(loaded.mails, orders);
  const audit = foldAudit(orders, names, mails);
  const downloads = foldDownloads();
  const comments = foldComments();
  const erasedOrders: string[] = [];

  for (const projected of events) {
    // The audit sentence reads the state before the event; an upload's mail reads the order after it.
    audit.step(projected);
    orders.step(projected);
    mails.step(projected);
    downloads.step(projected);
    comments.step(projected);
    names.step(projected);
    if (projected.event.type === "OrderPermanentlyDeleted") erasedOrders.push(projected.event.data.orderId);
  }

  return {
    orders: orders.changes(),
    mails: mails.changes(),
    downloads: downloads.changes(),
    comments: comments.changes(),
    audit: audit.changes(),
    names: names.changes(),
    erasedOrders,
  };
};
