import type { SignedInUser } from "@etd/contract";
import type { LoginRequest, Body } from "@etd/contract/requests";
import { apiRequest, type Envelope } from "../../../lib/api-client.ts";
import type { SignInValues } from "../sign-in-rules.ts";

/** What sign-in answers in `data` (ADR 0003), the contract's: the token and who it belongs to. */
export type { SignedInUser };

/** AUTH-3: `POST /admin/admin-login`; the envelope as the server sent it, failure included. */
export const signIn = (values: SignInValues): Promise<Envelope<SignedInUser | undefined>> =>
  apiRequest<SignedInUser | undefined>("POST", "/admin/admin-login", {
    body: { email: values.email.trim(), password: values.password } satisfies Body<typeof LoginRequest>,
  });
