import { usEastern } from "@etd/contract";

/*
 * The packs state times in US Eastern time (the back office's clock, 001 §3) as the comment
 * history does, with EST or EDT named so a reader in another zone is not misled.
 */

/** "03/14/2025 04:26:53 AM EDT"; an unreadable time is shown as it came. */
export const easternDateTime = (iso: string): string => {
  if (Number.isNaN(new Date(iso).getTime())) return iso;
  const { date, time, zone } = usEastern(iso);
  return `${date} ${time} ${zone}`;
};
