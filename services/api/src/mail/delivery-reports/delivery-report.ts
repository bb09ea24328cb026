import { EventId, isOrderId, type OrderId } from "@etd/events";
import type { RecordDeliveryReport } from "@etd/write";
import * as Schema from "effect/Schema";

/*
 * What a provider's delivery report becomes once its signature is checked (ADR 0019): exactly the
 * fields of the mail decider's RecordDeliveryReport command, so each report is one command.
 */

export type DeliveryReport = Omit<RecordDeliveryReport, "type">;

/** What a verified request held: the reports to record, and how many of its events were set aside (and why). */
export interface ParsedReports {
  readonly reports: readonly DeliveryReport[];
  /** Events of a kind that moves no mail (opens, clicks, deferrals, sends) or whose ids do not decode. */
  readonly skipped: readonly string[];
}

const isEventId = Schema.is(EventId);

/**
 * The mail's ids as the provider echoed them (SES message tags, SendGrid custom_args). Anyone can
 * make a provider echo anything, so they are decoded like any other input; undefined when either
 * is not one of ours.
 */
export const mailIds = (eventId: unknown, orderId: unknown): { mailId: EventId; orderId: OrderId } | undefined =>
  isEventId(eventId) && isOrderId(orderId) ? { mailId: eventId, orderId } : undefined;

/** A provider's time as the ISO form events store; undefined when it is no time at all. */
export const isoInstant = (value: string | number | undefined): string | undefined => {
  if (value === undefined || value === "") return undefined;
  const time = new Date(value).getTime();
  // Years outside 0000-9999 are written with a sign, which no stored instant has.
  const iso = Number.isNaN(time) ? undefined : new Date(time).toISOString();
  return iso !== undefined && /^\d{4}-/.test(iso) ? iso : undefined;
};

/** A provider's id, trimmed; undefined when empty (the decider's events refuse blank ids). */
export const providerId = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= 256 ? trimmed : undefined;
};

/** An SMTP enhanced status code (RFC 3463), e.g. 5.1.1: the part of a bounce worth keeping. */
export const STATUS_CODE = /^[245]\.\d{1,3}\.\d{1,3}$/;
