import * as Schema from "effect/Schema";
import { isErased, PersonalDataErased } from "../shared/personal-data.ts";
import { NonEmptyText } from "../shared/primitives.ts";
import { defineUpcaster, type Upcaster } from "../shared/upcaster.ts";
import {
  DefencePackGenerated,
  DocumentDownloaded,
  DocumentUploaded,
  OrderAssigned,
  OrderPlaced,
  RemarkAdded,
  TransactionDetailsRecorded,
} from "./order-events.ts";

/**
 * Event types renamed after events were stored under the old name (stored type → current type).
 * The store keeps what was written; every reader maps the old name on read, before upcasting,
 * so the version chain of the new name continues the old one's. New appends write the new name.
 * OrderClaimed became OrderAssigned when the code took the design card's word (ADR 0013).
 */
export const ORDER_RENAMES: ReadonlyMap<string, string> = new Map([["OrderClaimed", OrderAssigned.type]]);

/**
 * RemarkAdded version 1, as the first writers stored it: the add-new-remark payload of the
 * spec, flags as 'Y' when ticked and 'N', empty or absent when not. Frozen: never edit it.
 */
const flagV1 = Schema.optionalKey(Schema.Literals(["Y", "N", ""]));
export const RemarkAddedV1 = Schema.Struct({
  orderId: Schema.String,
  remark: Schema.String,
  remarkerName: Schema.String,
  whatsapp: flagV1,
  telephone: flagV1,
  statusRefund: flagV1,
  voided: flagV1,
  chargeBack: flagV1,
  reportError: flagV1,
});

const ticked = (flag: string | undefined): boolean => flag === "Y";

/**
 * RemarkAdded version 2: booleans for flags, the text in the clear beside them. Frozen: never
 * edit it. Those stored events still hold the text in the log itself (nothing can seal it after
 * the fact), so readers of an erased order must hide it themselves: see `withPersonalErased`.
 */
export const RemarkAddedV2 = Schema.Struct({
  orderId: Schema.String,
  remark: NonEmptyText,
  remarkerName: NonEmptyText,
  whatsapp: Schema.Boolean,
  telephone: Schema.Boolean,
  statusRefund: Schema.Boolean,
  voided: Schema.Boolean,
  chargeBack: Schema.Boolean,
  reportError: Schema.Boolean,
});

/*
 * Version 1 of the events that kept file names, the trip as typed, the device and the payment
 * references in the clear (issue 25). Their upcasters move those values into `personal`, where
 * version 2 seals them. An event that already had a `personal` part tells the upcaster whether the
 * order was erased: then the moved values are dropped, so the reader gets `{ erased: true }` as
 * for a version-2 event. An event that had none (a transaction's details, a defence pack) cannot
 * tell; readers of an erased order's stream erase it themselves (`withPersonalErased`). The stored
 * version-1 bytes keep the text either way: nothing seals the log after the fact.
 */

/** The erased marker, or any object: version 1's personal parts are checked again as version 2. */
const personalV1 = Schema.Union([PersonalDataErased, Schema.Record(Schema.String, Schema.Unknown)]);

/**
 * The keys of OrderPlaced version 1's `application` that version 2 keeps in `personal`: every one
 * the customer typed as text. Frozen: never edit it.
 */
export const TRIP_TEXT_KEYS_V1 = [
  "passport_type",
  "citizenship_id",
  "citizenship",
  "citizenshipCountry",
  "purpose_of_visit",
  "traveller_type",
  "vessel_name",
  "cabin_number",
  "name_of_airline",
  "flight_number",
  "country_of_origin",
  "seaport_of_origin",
  "airport_of_origin",
  "special_flight_number",
  "country_of_transit",
  "airport_of_transit",
  "seaport_of_transit",
  "seat_number",
  "country_of_destination",
  "seaport_of_destination",
  "seaport",
  "airport_of_arrival_departure",
  "airport_of_destination",
  "destination_type",
  "hotel_details",
  "hotel_name",
  "hotel_other",
  "airport_details",
  "custom_declaration_details",
  "instrument_information",
  "no_of_days_philippines",
  "name_of_courrier",
  "bill_of_landing",
] as const;
const TRIP_TEXT_V1: ReadonlySet<string> = new Set(TRIP_TEXT_KEYS_V1);

/**
 * OrderPlaced version 1, as far as the move needs to see it: the parts as objects. Each value is
 * checked against version 2's schema after the move (decodeEvent), which describes the same
 * fields. Frozen: never edit it.
 */
export const OrderPlacedV1 = Schema.Struct({
  orderId: Schema.String,
  processingMode: Schema.String,
  landingDomain: Schema.String,
  processingDate: Schema.String,
  createdAt: Schema.String,
  application: Schema.Record(Schema.String, Schema.Unknown),
  personal: personalV1,
  payment: Schema.optionalKey(Schema.Unknown),
});

/** DocumentUploaded version 1: the file in the clear, the address sealed. Frozen: never edit it. */
export const DocumentUploadedV1 = Schema.Struct({
  orderId: Schema.String,
  fileName: Schema.String,
  storedPath: Schema.String,
  contentType: Schema.String,
  sizeBytes: Schema.Number,
  uploadedBy: Schema.Struct({ id: Schema.String, name: Schema.String }),
  provider: Schema.String,
  personal: personalV1,
});

/** DocumentDownloaded version 1: the file and device in the clear, the IP sealed. Frozen: never edit it. */
export const DocumentDownloadedV1 = Schema.Struct({
  orderId: Schema.String,
  fileName: Schema.String,
  browser: Schema.optionalKey(Schema.String),
  os: Schema.optionalKey(Schema.String),
  device: Schema.optionalKey(Schema.String),
  deviceType: Schema.optionalKey(Schema.String),
  timezone: Schema.optionalKey(Schema.String),
  personal: personalV1,
});

/** TransactionDetailsRecorded version 1, all in the clear. Frozen: never edit it. */
export const TransactionDetailsRecordedV1 = Schema.Struct({
  orderId: Schema.String,
  transactionId: Schema.String,
  merchantName: Schema.String,
});

/** DefencePackGenerated version 1, all in the clear. Frozen: never edit it. */
export const DefencePackGeneratedV1 = Schema.Struct({
  orderId: Schema.String,
  packType: Schema.Number,
  fileName: Schema.String,
  storedPath: Schema.String,
});

/** Version 2 is checked by decodeEvent after the move; these upcasters only rearrange. */
type Moved = { readonly [key: string]: unknown };

export const ORDER_UPCASTERS: ReadonlyArray<Upcaster> = [
  defineUpcaster({
    type: RemarkAdded.type,
    fromVersion: 1,
    from: RemarkAddedV1,
    to: RemarkAddedV2,
    up: (v1) => ({
      orderId: v1.orderId,
      // The old form did not trim; version 2 refuses surrounding blanks.
      remark: v1.remark.trim(),
      remarkerName: v1.remarkerName.trim(),
      whatsapp: ticked(v1.whatsapp),
      telephone: ticked(v1.telephone),
      statusRefund: ticked(v1.statusRefund),
      voided: ticked(v1.voided),
      chargeBack: ticked(v1.chargeBack),
      reportError: ticked(v1.reportError),
    }),
  }),
  defineUpcaster({
    type: RemarkAdded.type,
    fromVersion: 2,
    from: RemarkAddedV2,
    to: RemarkAdded.data,
    // Moved, not sealed: the write side seals on append only, so this text stays readable until a
    // reader that knows the order was erased drops it (withPersonalErased).
    up: ({ remark, ...rest }) => ({ ...rest, personal: { remark } }),
  }),
  defineUpcaster({
    type: OrderPlaced.type,
    fromVersion: 1,
    from: OrderPlacedV1,
    to: Schema.Unknown,
    up: ({ application, personal, ...rest }): Moved => {
      const clear = Object.fromEntries(Object.entries(application).filter(([key]) => !TRIP_TEXT_V1.has(key)));
      const typed = Object.fromEntries(Object.entries(application).filter(([key]) => TRIP_TEXT_V1.has(key)));
      return { ...rest, application: clear, personal: isErased(personal) ? personal : { ...typed, ...personal } };
    },
  }),
  defineUpcaster({
    type: DocumentUploaded.type,
    fromVersion: 1,
    from: DocumentUploadedV1,
    to: Schema.Unknown,
    up: ({ fileName, storedPath, personal, ...rest }): Moved => ({ ...rest, personal: isErased(personal) ? personal : { ...personal, fileName, storedPath } }),
  }),
  defineUpcaster({
    type: DocumentDownloaded.type,
    fromVersion: 1,
    from: DocumentDownloadedV1,
    to: Schema.Unknown,
    up: ({ orderId, timezone, personal, ...device }): Moved => ({
      orderId,
      ...(timezone === undefined ? {} : { timezone }),
      personal: isErased(personal) ? personal : { ...personal, ...device },
    }),
  }),
  defineUpcaster({
    type: TransactionDetailsRecorded.type,
    fromVersion: 1,
    from: TransactionDetailsRecordedV1,
    to: Schema.Unknown,
    up: ({ orderId, ...personal }): Moved => ({ orderId, personal }),
  }),
  defineUpcaster({
    type: DefencePackGenerated.type,
    fromVersion: 1,
    from: DefencePackGeneratedV1,
    to: Schema.Unknown,
    up: ({ orderId, packType, ...personal }): Moved => ({ orderId, packType, personal }),
  }),
];
