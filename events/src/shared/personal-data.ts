import * as Schema from "effect/Schema";

/*
 * Personal data and crypto-shredding (DESIGN §3).
 *
 * An event that holds personal data keeps all of it in one field, `data.personal`, and nothing
 * personal anywhere else (metadata included). The write side encrypts that one field with the
 * order's key before appending and decrypts it before `decodeEvent`; a permanent delete destroys
 * the key. From then on the write side hands `decodeEvent` the marker below instead, so old
 * events still decode, folds and projections still run, and the history stays intact without the
 * person in it.
 *
 * This package never sees ciphertext: its schemas describe the plain form, or the marker.
 */

/** What `personal` holds once the order's key has been destroyed. */
export const PersonalDataErased = Schema.Struct({ erased: Schema.Literal(true) });
export type PersonalDataErased = typeof PersonalDataErased.Type;

export const ERASED: PersonalDataErased = { erased: true };

/** The `personal` field of an event: these fields, or the erased marker. */
export const personalData = <const Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Union([Schema.Struct(fields), PersonalDataErased]).annotate({
    expected: "the personal data in plain form, or { erased: true }",
  });

export const isErased = (personal: object): personal is PersonalDataErased =>
  "erased" in personal && personal.erased === true;

/**
 * The event with its `personal` part read as erased; an event without one unchanged. For readers
 * of an erased order's streams: events stored before their values moved into `personal` (a
 * remark before RemarkAdded version 3, a transaction's details or a defence pack before version 2,
 * a mail's failure before MailFailed version 2) are upcast with those values in `personal`, but
 * the log holds them in the clear, so destroying the key cannot hide them. Such a reader checks
 * `isPermanentlyDeleted` and passes every event of the order and of its mails through this.
 */
export const withPersonalErased = <E extends { readonly data: object }>(event: E): E =>
  "personal" in event.data && !isErased(event.data.personal as object) ? { ...event, data: { ...event.data, personal: ERASED } } : event;
