import { queryOptions } from "@tanstack/react-query";
import type { TwoFactorSetup, TwoFactorStatus } from "@etd/contract";
import type { Body, TwoFactorEnableRequest, TwoFactorSetupRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/*
 * The signed-in member's own two-factor sign-in (issue 16 part A, API 3–5); an Admin's reset of
 * someone else's (API 6) is the team's (admin/api/reset-two-factor.ts). The status lives with the
 * staff credentials: its key sits under the staff read model's, so a change to the team (a reset)
 * refetches it too.
 */

/** The member's status and the setup's key and QR code, the contract's. */
export type { TwoFactorSetup, TwoFactorStatus };

export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.staff, "two-factor"],
    queryFn: ({ signal }) => apiRequest<TwoFactorStatus | null>("GET", "/admin/two-factor", { signal }),
  });

/** A new pending secret; each call replaces the previous one. */
export const startTwoFactorSetup = () => apiRequest<TwoFactorSetup | null>("POST", "/admin/two-factor/setup", { body: {} satisfies Body<typeof TwoFactorSetupRequest> });

/**
 * Confirms enrolment with a code from the app; the answer holds the recovery codes, shown this
 * once, and the token this session goes on with (every other session of the member has ended).
 */
export const enableTwoFactor = (code: string) =>
  apiRequest<{ recoveryCodes: readonly string[]; accessToken: string } | null>("POST", "/admin/two-factor/enable", { body: { code } satisfies Body<typeof TwoFactorEnableRequest> });
