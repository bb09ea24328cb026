import { PROCESSING_MODE_LABELS } from "./vocabulary.ts";

/*
 * Display values for rows that reach the client raw: the Order Processed list (ADMIN-7), whose
 * reports read model does not format for lists. Its table (web) and its CSV export (API, issue
 * 16 D) both format with these, so the file holds what the screen shows: times as DD/MM/YYYY
 * HH:mm:ss in UTC the way every queue shows them (QUEUE-6), so every member of staff reads the
 * same time. A status's label is the vocabulary's `statusLabel`, already exported beside these.
 */

const MODE_LABELS: Readonly<Record<string, string>> = PROCESSING_MODE_LABELS;

/** "2025-04-03" → "03/04/2025"; anything else unchanged. */
export const formatDay = (day: string): string => {
  const parts = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return parts ? `${parts[3]}/${parts[2]}/${parts[1]}` : day;
};

/** An ISO instant as "DD/MM/YYYY HH:mm:ss" in UTC; anything that is not an instant unchanged. */
export const formatDateTime = (iso: string): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const utc = at.toISOString();
  return `${formatDay(utc.slice(0, 10))} ${utc.slice(11, 19)}`;
};

/** ORDER-4: the site's 'Regular Processing' reads as 'Standard Processing'; an unknown mode as it came. */
export const processingModeLabel = (mode: string): string => MODE_LABELS[mode] ?? mode;
