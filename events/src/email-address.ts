/*
 * The one e-mail address rule: the forms (web, through @etd/contract), the request schemas, intake,
 * the deciders and the mail adapters all ask this function, so an address one of them takes is
 * one a mail can go to. It accepts what both providers (SES, SendGrid) take as a bare recipient:
 * `local@domain` in plain ASCII, where
 * - local is dot-separated atoms of letters, digits and !#$%&'*+/=?^_`{|}~- (RFC 5322's atext), at
 *   most 64 characters: no empty atom, so no leading, trailing or doubled dot (SendGrid refuses
 *   those unquoted), no quoted local part;
 * - domain is two or more dot-separated labels of letters, digits and inner hyphens, each 1 to 63
 *   characters, the last one not all digits: a host name, no IP literal, no Unicode (SES wants
 *   Punycode, and the adapters pass the address through as it is);
 * so commas, semicolons, colons, angle brackets, double quotes, parentheses, spaces, control
 * characters and a second '@', which would name other recipients or a display name once the
 * address reaches a mail header or a provider's list, are refused.
 *
 * The length is checked first (254, RFC 5321's limit on a path), so every pattern below runs on at
 * most 254 characters, and each is unambiguous besides: linear in any input (issue 25: the pattern
 * this replaces took 11 s on one 160 kB sign-in). Callers trim first: the rule takes no blanks.
 * Nothing here may import anything: the web app loads it (ADR 0012).
 */

/** The longest address: RFC 5321's 256-octet path less its angle brackets. */
export const MAX_EMAIL_LENGTH = 254;

const MAX_LOCAL_LENGTH = 64;
const MAX_LABEL_LENGTH = 63;

/**
 * The address's shape, lengths aside: atoms of atext joined by single dots (`.` is not in the
 * class, so each dot ends one atom), '@', then host-name labels (letters and digits, hyphens only
 * between them) joined by dots, the last one not all digits (either it has a hyphen, or a letter
 * among its letters and digits). Spelled with explicit classes and no flags, so that it reads the
 * same in every regular expression engine: the OpenAPI document states it as a `pattern`
 * (EMAIL_ADDRESS_PATTERN). Every part is told apart by the character that ends it, so it is
 * unambiguous, hence linear.
 */
const EMAIL_ADDRESS_SHAPE =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9]+(?:-+[A-Za-z0-9]+)*\.)+(?:[A-Za-z0-9]+(?:-+[A-Za-z0-9]+)+|[0-9]*[A-Za-z][A-Za-z0-9]*)$/;

/** The shape without its anchors, to be placed inside a longer pattern (a field that may carry blanks around it). */
export const EMAIL_ADDRESS_PATTERN = EMAIL_ADDRESS_SHAPE.source.slice(1, -1);

/** True when a mail can be addressed to `text` as it is (trim it first). */
export const isEmailAddress = (text: string): boolean => {
  if (text.length > MAX_EMAIL_LENGTH) return false;
  const at = text.indexOf("@");
  return (
    at >= 1 &&
    at <= MAX_LOCAL_LENGTH &&
    EMAIL_ADDRESS_SHAPE.test(text) &&
    text
      .slice(at + 1)
      .split(".")
      .every((label) => label.length <= MAX_LABEL_LENGTH)
  );
};
