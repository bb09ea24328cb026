import { Schema } from "effect";

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
