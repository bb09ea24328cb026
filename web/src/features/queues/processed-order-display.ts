import { ORDER_STATUS_LABELS, PROCESSING_MODE_LABELS } from "@etd/contract";

/*
 * Display values of the Order Processed list (ADMIN-7). Its rows carry raw values (the reports
 * read model does not format for lists), so they are formatted here the way every queue shows
 * them (QUEUE-6): DD/MM/YYYY HH:mm:ss in UTC, the status as staff read it (the contract's labels).
 */

const STATUS_LABELS: Readonly<Record<string, string>> = ORDER_STATUS_LABELS;
const MODE_LABELS: Readonly<Record<string, string>> = PROCESSING_MODE_LABELS;

/** "AwaitingGovt" → "Awaiting Govt"; a status this app does not know is shown as it came. */
export const statusLabel = (status: string): string => STATUS_LABELS[status] ?? status;

/** "2025-04-03" → "03/04/2025"; anything else unchanged. */
export const formatDay = (day: string): string => {
  const parts = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return parts ? `${parts[3]}/${parts[2]}/${parts[1]}` : day;
};

/** An ISO instant as "DD/MM/YYYY HH:mm:ss" in UTC, so every member of staff reads the same time. */
export const formatDateTime = (iso: string): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const utc = at.toISOString();
  return `${formatDay(utc.slice(0, 10))} ${utc.slice(11, 19)}`;
};

/** 'Regular Processing' reads as 'Standard Processing' (ORDER-4); the modes are standard and priority. */
export const processingModeLabel = (mode: string): string => MODE_LABELS[mode] ?? mode;
