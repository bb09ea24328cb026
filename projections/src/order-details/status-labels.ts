import { PROCESSING_MODE_LABELS } from "@etd/contract";

/* Words staff read on the detail page: the wire contract's (status labels come from the catalogue). */

export { PROCESSING_MODE_LABELS };
