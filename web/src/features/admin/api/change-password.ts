import type { Body, ChangePasswordRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";

/** AUTH-8: the signed-in member's new password; every session of theirs ends on success. */
export const changePassword = (newPassword: string) => apiRequest("POST", "/admin/change-password", { body: { newPassword } satisfies Body<typeof ChangePasswordRequest> });
