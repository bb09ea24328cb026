import { isEmailAddress } from "@etd/contract";

/*
 * The sign-in form's rules (AUTH-2), word for word as 000 §5 gives them. The server checks the
 * same rules with the same messages; checking here too lets the form refuse to submit early.
 */

export interface SignInValues {
  readonly email: string;
  readonly password: string;
}

export type SignInErrors = Partial<Record<keyof SignInValues, string>>;

export const emailError = (email: string): string | undefined => {
  if (email.trim() === "") return "Email Address is required";
  // The server's own address rule (the contract's).
  if (!isEmailAddress(email.trim())) return "Invalid email address";
  return undefined;
};

export const passwordError = (password: string): string | undefined => (password === "" ? "Password is required" : undefined);

export const signInErrors = (values: SignInValues): SignInErrors => {
  const errors: { email?: string; password?: string } = {};
  const email = emailError(values.email);
  const password = passwordError(values.password);
  if (email) errors.email = email;
  if (password) errors.password = password;
  return errors;
};

/*
 * The second step's rules (issue 16 part A), worded like AUTH-2's: required, then the shape.
 * An authenticator shows six digits (spaces are ignored: some apps group them 3 + 3); a recovery
 * code is ten letters and digits shown as xxxxx-xxxxx.
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
