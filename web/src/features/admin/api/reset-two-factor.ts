import type { Body, ResetTwoFactorRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";

/** Issue 16 API 6, Admin only: removes a member's second factor; they sign in with their password and set it up again. */
export const resetTwoFactor = (id: string) => apiRequest<{ position?: string } | null>("PUT", "/admin/reset-two-factor", { body: { id } satisfies Body<typeof ResetTwoFactorRequest> });
