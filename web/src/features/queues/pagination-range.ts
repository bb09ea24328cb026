/*
 * The page buttons of QUEUE-2 (000 §9): every page when there are at most six, otherwise the
 * first and last page, the current page with one sibling on each side, and an ellipsis for each
 * gap. The number of items stays the same (seven) wherever the current page is, so the buttons
 * do not jump around under the pointer while paging.
 */

export type PageItem = number | "start-ellipsis" | "end-ellipsis";

const SIBLINGS = 1;
/** First, last, current, two siblings and two ellipses. */
const SLOTS = SIBLINGS * 2 + 5;

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** The pages to offer for `current` of `totalPages` (both from 1); an empty list when there are no pages. */
export const paginationRange = (current: number, totalPages: number): PageItem[] => {
  if (totalPages <= 0) return [];
  if (totalPages <= SLOTS - 1) return range(1, totalPages);
  const page = Math.min(Math.max(1, current), totalPages);
  const left = Math.max(page - SIBLINGS, 1);
  const right = Math.min(page + SIBLINGS, totalPages);
  const leftGap = left > 2;
  const rightGap = right < totalPages - 1;
  // With one ellipsis, the block on its far side fills the slots the other ellipsis would take.
  const block = SLOTS - 2;
  if (!leftGap) return [...range(1, block), "end-ellipsis", totalPages];
  if (!rightGap) return [1, "start-ellipsis", ...range(totalPages - block + 1, totalPages)];
  return [1, "start-ellipsis", ...range(left, right), "end-ellipsis", totalPages];
};
