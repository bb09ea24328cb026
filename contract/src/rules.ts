/*
 * Input rules the forms check before sending and the request schemas check on arrival, so both
 * give the same verdict (requests/*.ts build the schemas from these).
 */

/** An e-mail address: something@something.something, no spaces or control characters. */
export const EMAIL_PATTERN = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

/** One maximum on every path that takes a password (sign-in, add, edit, change): what can be set can be used. */
export const MAX_PASSWORD_LENGTH = 200;

/** A password of spaces only: sign-in takes it for a missing one, so it is never set. */
export const BLANK_PASSWORD = "A password cannot be only spaces.";
