/*
 * Input rules the forms check before sending and the request schemas check on arrival, so both
 * give the same verdict (requests/*.ts build the schemas from these).
 */

/** The one e-mail address rule (forms, requests, intake, deciders, mail): an address a mail can go to, checked in linear time. */
export { isEmailAddress, MAX_EMAIL_LENGTH } from "@etd/events/email-address";

/** One maximum on every path that takes a password (sign-in, add, edit, change): what can be set can be used. */
export const MAX_PASSWORD_LENGTH = 200;

/** A password of spaces only: sign-in takes it for a missing one, so it is never set. */
export const BLANK_PASSWORD = "A password cannot be only spaces.";
