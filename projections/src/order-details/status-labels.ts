import type { ProcessingMode } from "@etd/events";

/* Words staff read on the detail page (status labels come from the catalogue). */

/** ORDER-4: the site's "Regular Processing" is shown as "Standard Processing". */
export const PROCESSING_MODE_LABELS = {
  standard: "Standard Processing",
  priority: "Priority Processing",
} as const satisfies { readonly [M in ProcessingMode]: string };

export type ProcessingModeLabel = (typeof PROCESSING_MODE_LABELS)[ProcessingMode];
