import type { SelectedOrder } from "@etd/contract";
import { apiRequest } from "../../../lib/api-client.ts";
import type { QueueKey } from "../queue-screens.ts";

/** Every order of a folder (and search) at the moment of selecting, newest first, or the server's refusal (over 5,000). */
export type SelectAllAnswer = { readonly ok: true; readonly orders: readonly SelectedOrder[] } | { readonly ok: false; readonly message: string };

/**
 * POST /admin/select-all-orders {folderName, searchVal?, processMonth?} (issue 16 part B): the
 * orders the folder's list and search match now, with their status and assignee, so the bulk
 * command acts on exactly these and reports any that changed since.
 */
export const selectAllOrders = async (
  params: { queueKey: QueueKey; searchVal: string; processMonth?: string | undefined },
  /** This tab's last command's position: the selection must include what it changed. */
  readAfter?: string,
): Promise<SelectAllAnswer> => {
  const searchVal = params.searchVal.trim();
  const body = {
    folderName: params.queueKey,
    ...(searchVal === "" ? {} : { searchVal }),
    ...(params.processMonth === undefined ? {} : { processMonth: params.processMonth }),
  };
  const answer = await apiRequest<readonly SelectedOrder[] | null>("POST", "/admin/select-all-orders", { body, readAfter });
  if (answer.status !== 1) return { ok: false, message: answer.message };
  return { ok: true, orders: answer.data ?? [] };
};
