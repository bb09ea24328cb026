/*
 * The admin forms' client-side rules (000 §5, 001 §5), written to give the same verdict and the
 * same sentence as the server's request schemas, so a user sees the message before the round
 * trip and the server never has to say something the form did not. The server stays the judge:
 * whatever it answers is shown as a toast.
 */

import { CAPACITY_MESSAGE, characterCount, isEmailAddress, MAX_CAPACITY, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, ROLES } from "@etd/contract";
import type { FieldErrors } from "../../../lib/use-validated-form.ts";

/** The types a member can have: the contract's roles (000 §5). */
export const TEAM_MEMBER_TYPES = ROLES;

export interface TeamMemberValues {
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly type: string;
}

/**
 * ADMIN-1. On edit (`isEdit`) the password may stay empty: the member keeps the one they have;
 * a new one still needs 6 characters.
 */
export const validateTeamMember = (values: TeamMemberValues, isEdit: boolean): FieldErrors<TeamMemberValues> => {
  const errors: { -readonly [K in keyof TeamMemberValues]?: string } = {};
  if (values.name.trim().length === 0) errors.name = "Please enter your name.";
  else if (characterCount(values.name) > MAX_NAME_LENGTH) errors.name = `Must be at most ${MAX_NAME_LENGTH} characters.`;
  const email = values.email.trim();
  if (email.length === 0) errors.email = "Please enter your email.";
  else if (!isEmailAddress(email)) errors.email = "Please enter a valid email.";
  if (values.password.length === 0) {
    if (!isEdit) errors.password = "Please enter your password.";
  } else if (characterCount(values.password) < 6) errors.password = "Password must be at least 6 characters.";
  else if (characterCount(values.password) > MAX_PASSWORD_LENGTH) errors.password = `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (!(TEAM_MEMBER_TYPES as readonly string[]).includes(values.type)) errors.type = "Please select type.";
  return errors;
};

export interface CapacityValues {
  /** Digits, or empty for no limit. */
  readonly capacity: string;
}

/** Issue 27: a whole number from 1 to MAX_CAPACITY, or empty (no limit); the request's schema says the same. */
export const validateCapacity = (values: CapacityValues): FieldErrors<CapacityValues> => {
  const text = values.capacity.trim();
  if (text === "") return {};
  const n = /^[0-9]{1,4}$/.test(text) ? Number(text) : Number.NaN;
  return n >= 1 && n <= MAX_CAPACITY ? {} : { capacity: CAPACITY_MESSAGE };
};

/** The capacity a valid field stands for: null (no limit) when empty. */
export const capacityOf = (values: CapacityValues): number | null => (values.capacity.trim() === "" ? null : Number(values.capacity.trim()));

export interface GatewayValues {
  readonly gatewayId: string;
}

/** ADMIN-2: each domain's selector needs a gateway. */
export const validateGateway = (values: GatewayValues): FieldErrors<GatewayValues> =>
  values.gatewayId.trim().length === 0 ? { gatewayId: "Please select a gateway." } : {};

export interface NewPasswordValues {
  readonly newPassword: string;
}

/** AUTH-8. */
export const validateNewPassword = (values: NewPasswordValues): FieldErrors<NewPasswordValues> => {
  if (values.newPassword.length === 0) return { newPassword: "Please enter your New Password." };
  if (characterCount(values.newPassword) < 6) return { newPassword: "New Password must be at least 6 characters." };
  if (characterCount(values.newPassword) > MAX_PASSWORD_LENGTH) return { newPassword: `New Password must be at most ${MAX_PASSWORD_LENGTH} characters.` };
  return {};
};

export interface InvoiceValues {
  readonly orderId: string;
}

/**
 * ADMIN-6. Order ids are digits; the server answers anything else that is not empty with the
 * minimum-length sentence, so the form does too rather than invent a message of its own.
 */
export const validateInvoice = (values: InvoiceValues): FieldErrors<InvoiceValues> => {
  const orderId = values.orderId.trim();
  if (orderId.length === 0) return { orderId: "Please enter your order id." };
  if (!/^\d{6,20}$/.test(orderId)) return { orderId: "Order Id must be at least 6 characters." };
  return {};
};

export interface DateRangeValues {
  readonly fromDate: string;
  readonly toDate: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day as YYYY-MM-DD that exists (2025-02-30 does not). */
export const isDay = (value: string): boolean => {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

/** ADMIN-4, ADMIN-5: either end may be empty (open); From after To would silently give nothing. */
export const validateDateRange = (values: DateRangeValues): FieldErrors<DateRangeValues> => {
  const errors: { -readonly [K in keyof DateRangeValues]?: string } = {};
  if (values.fromDate && !isDay(values.fromDate)) errors.fromDate = "From date must be a date like 2025-03-14.";
  if (values.toDate && !isDay(values.toDate)) errors.toDate = "To date must be a date like 2025-03-14.";
  if (!errors.fromDate && !errors.toDate && values.fromDate && values.toDate && values.fromDate > values.toDate) {
    errors.fromDate = "From date must not be after To date.";
  }
  return errors;
};
