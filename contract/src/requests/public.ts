import * as Schema from "effect/Schema";
import { maxCharacters } from "@etd/events/checks";
import { orderIdField, requiredText } from "./fields.ts";

/* The traveller's pages (PUBLIC-1, PUBLIC-2, ADR 0007). */

export const TrackOrderRequest = Schema.Struct({
  orderId: requiredText("Please enter your orderId", 40),
  email: requiredText("Please enter your email", 254),
});

export const DownloadDocumentRequest = Schema.Struct({
  orderId: requiredText("Please enter your orderId", 40),
  customername: Schema.optionalKey(Schema.String.check(maxCharacters(300))),
  file1: requiredText("The document was not found.", 300),
});

/** 001 §7: only the order id, as the spec's client sends it; the grant from track-order does the rest. */
export const DownloadHistoryRequest = Schema.Struct({ orderId: orderIdField("Please enter your orderId") });
