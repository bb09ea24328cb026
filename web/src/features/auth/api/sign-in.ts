import type { SignedInUser, TwoFactorChallenge } from "@etd/contract";
import type { LoginRequest, Body, TwoFactorLoginRequest } from "@etd/contract/requests";
import { apiRequest, type Envelope } from "../../../lib/api-client.ts";
import type { SignInValues } from "../sign-in-rules.ts";

/** What sign-in answers in `data` (ADR 0003), the contract's: the token and who it belongs to. */
export type { SignedInUser };

/**
 * Sign-in's `data`: the signed-in member (status 1), possibly told to set up two-factor sign-in
 * first; or, for a member who uses it (status 0), the second step's challenge (issue 16 part A).
 */
export type SignInData =
  | (SignedInUser & { readonly twoFactorSetupRequired?: boolean })
  | TwoFactorChallenge;

/** AUTH-3: `POST /admin/admin-login`; the envelope as the server sent it, failure included. */
export const signIn = (values: SignInValues): Promise<Envelope<SignInData | null | undefined>> =>
  apiRequest<SignInData | null | undefined>("POST", "/admin/admin-login", {
    body: { email: values.email.trim(), password: values.password } satisfies Body<typeof LoginRequest>,
  });

/** The second step's proof: a code from the authenticator app, or one of the recovery codes. */
export type SecondFactor = { readonly code: string } | { readonly recoveryCode: string };

/** Issue 16 part A: `POST /admin/admin-login/two-factor`; answers as sign-in does once the code holds. */
export const signInSecondStep = (challenge: string, proof: SecondFactor): Promise<Envelope<SignedInUser | null | undefined>> =>
  apiRequest<SignedInUser | null | undefined>("POST", "/admin/admin-login/two-factor", {
    body: { challenge, ...proof } satisfies Body<typeof TwoFactorLoginRequest>,
  });
