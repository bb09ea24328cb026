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
