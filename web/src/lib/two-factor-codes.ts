/*
 * The rules of a two-factor code (issue 16 part A), worded like AUTH-2's: required, then the shape.
 * An authenticator shows six digits (spaces are ignored: some apps group them 3 + 3); a recovery
 * code is ten letters and digits shown as xxxxx-xxxxx. Sign-in's second step (auth) and enrolment
 * (two-factor) both take a code, so the rules live in lib/.
 */

export const normalizeCode = (code: string): string => code.replace(/\s+/g, "");

export const codeError = (code: string): string | undefined => {
  const digits = normalizeCode(code);
  if (digits === "") return "Authentication code is required";
  if (!/^\d{6}$/.test(digits)) return "Authentication code must be 6 digits";
  return undefined;
};

/** The recovery code as the server showed it: lower case, five and five with a hyphen between. */
export const normalizeRecoveryCode = (code: string): string => {
  const plain = code.replace(/[\s-]+/g, "").toLowerCase();
  return plain.length === 10 ? `${plain.slice(0, 5)}-${plain.slice(5)}` : plain;
};

export const recoveryCodeError = (code: string): string | undefined => {
  const plain = code.replace(/[\s-]+/g, "");
  if (plain === "") return "Recovery code is required";
  if (!/^[A-Za-z0-9]{10}$/.test(plain)) return "Invalid recovery code";
  return undefined;
};
