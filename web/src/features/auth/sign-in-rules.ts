import { EMAIL_PATTERN } from "@etd/contract";

/*
 * The sign-in form's rules (AUTH-2), word for word as 000 §5 gives them. The server checks the
 * same rules with the same messages; checking here too lets the form refuse to submit early.
 */

export interface SignInValues {
  readonly email: string;
  readonly password: string;
}

export type SignInErrors = Partial<Record<keyof SignInValues, string>>;

// The server's own address rule (the contract's): something@something.something, no spaces or control characters.
const EMAIL = EMAIL_PATTERN;

export const emailError = (email: string): string | undefined => {
  if (email.trim() === "") return "Email Address is required";
  if (!EMAIL.test(email.trim())) return "Invalid email address";
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
