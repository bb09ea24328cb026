/*
 * Input rules the forms check before sending and the request schemas check on arrival, so both
 * give the same verdict (requests/*.ts build the schemas from these).
 */

/** The one e-mail address rule (forms, requests, intake, deciders, mail): an address a mail can go to, checked in linear time. */
export { EMAIL_ADDRESS_PATTERN, isEmailAddress, MAX_EMAIL_LENGTH } from "@etd/events/email-address";

/** One maximum on every path that takes a password (sign-in, add, edit, change): what can be set can be used. */
export const MAX_PASSWORD_LENGTH = 200;

/**
 * A text's length as the request schemas count it: in characters (code points), as JSON Schema
 * and PostgreSQL do, so that a form's limit is the server's ("😀" is one character, two UTF-16 units).
 */
export const characterCount = (text: string): number => {
  let count = 0;
  for (const _character of text) count++;
  return count;
};

/**
 * The most open assigned orders a member's capacity may name (issue 27): Manage Team's field and
 * the capacity request check it; the staff decider (MAX_CAPACITY) and StaffCapacitySet's schema say the same.
 */
export const MAX_CAPACITY = 1000;
export const CAPACITY_MESSAGE = `A capacity is a whole number from 1 to ${MAX_CAPACITY}, or empty for no limit.`;

/** One maximum for a team member's name: the form's, and the bound on the name clients send along with list calls. */
export const MAX_NAME_LENGTH = 200;

/** A UUID's digits in either case, as a pattern without flags (the OpenAPI document states it too). */
export const UUID_PATTERN = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}";
const UUID = new RegExp(`^${UUID_PATTERN}$`);

/**
 * An id in the form the API and the log give ids (a UUID), checked length first: mail ids sent
 * back by staff, and request ids, which are kept only in this form (ADR 0009).
 */
export const isUuid = (value: string): boolean => value.length === 36 && UUID.test(value);

/** A password of spaces only: sign-in takes it for a missing one, so it is never set. */
export const BLANK_PASSWORD = "A password cannot be only spaces.";
