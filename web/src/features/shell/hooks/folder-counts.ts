import { useQuery } from "@tanstack/react-query";
import type { FolderCounts } from "@etd/contract";
import { QUEUES } from "@etd/contract/endpoints";
import type { Envelope } from "../../../lib/api-client.ts";
import { endpointQuery } from "../../../lib/endpoint-query.ts";

/** The counts object of 000 §3 (SHELL-5): one number per folder; My Orders is the caller's (000 §7 sends the name, the server goes by the session). */
export const folderCountsQuery = (userName: string) => endpointQuery(QUEUES.getFolderCounts, { query: { userName } });

/** A refusal keeps the badges empty rather than showing zeros that are not true. */
const countsOf = (answer: Envelope<FolderCounts | null>): FolderCounts | undefined => (answer.status === 1 ? (answer.data ?? undefined) : undefined);

/** The counts the side menu and the dashboard show; undefined while they load or when refused. Refreshed by the live feed (the queue read model). */
export const useFolderCounts = (userName: string, { enabled = true }: { enabled?: boolean } = {}): FolderCounts | undefined =>
  useQuery({ ...folderCountsQuery(userName), enabled, select: countsOf }).data;
