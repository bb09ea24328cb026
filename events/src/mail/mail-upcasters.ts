import * as Schema from "effect/Schema";
import { defineUpcaster, type Upcaster } from "../shared/upcaster.ts";
import { MailFailed } from "./mail-events.ts";

/**
 * MailFailed version 1: the provider's answer in the clear. Frozen: never edit it. Those stored
 * events keep the text in the log itself, so readers of an erased order's mails hide it
 * themselves (`withPersonalErased`), as for the order's own older events.
 */
export const MailFailedV1 = Schema.Struct({
  mailId: Schema.String,
  orderId: Schema.String,
  attempt: Schema.Number,
  reason: Schema.String,
  retryAt: Schema.optionalKey(Schema.String),
});

export const MAIL_UPCASTERS: ReadonlyArray<Upcaster> = [
  defineUpcaster({
    type: MailFailed.type,
    fromVersion: 1,
    from: MailFailedV1,
    to: Schema.Unknown,
    up: ({ reason, ...rest }): { readonly [key: string]: unknown } => ({ ...rest, personal: { reason } }),
  }),
];
