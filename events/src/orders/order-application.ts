import * as Schema from "effect/Schema";
import { Count, EmailAddress, NonEmptyText } from "../shared/primitives.ts";

/*
 * The traveller's application as the customer-facing site submits it (001 §3), carried by
 * OrderPlaced. Field names are the spec's snake_case (typos included: `symtoms`,
 * `name_of_courrier`, `bill_of_landing`) so the detail page and the API map 1:1.
 *
 * It is split in two for crypto-shredding (see shared/personal-data.ts, ADR 0009):
 * - OrderPersonalData, sealed with the order's key: every value the customer typed as text.
 *   That is the person (names, signature and photo, sex, birth, occupation, passport, e-mail and
 *   phone, addresses, health answers, the currency owner/recipient blocks) and, since OrderPlaced
 *   version 2, also the trip as typed: citizenship, airline, flight and seat, vessel and cabin,
 *   ports and countries, hotel, the customs entries' descriptions, the currency instruments, the
 *   courier and bill of lading. Together they single out one traveller on one flight, and a text
 *   field holds whatever the customer put in it; a permanent delete must leave none of it.
 * - OrderApplication, in the clear: only values from a closed set the intake checks (air/sea,
 *   arrival/departure, yes/no answers, calendar days, counts, amounts). None of them is text a
 *   person wrote, so none can carry a name.
 *
 * Most fields are optional strings, as the form leaves them; the intake edge normalises values
 * (e.g. "yes" → "Yes") before the order is placed.
 */

const text = Schema.optionalKey(Schema.String);
const count = Schema.optionalKey(Count);

export const YesNo = Schema.Literals(["Yes", "No"]);
export type YesNo = typeof YesNo.Type;
const yesNo = Schema.optionalKey(YesNo);

/** The twelve customs declaration items (001 §3), in the order the form asks them. */
export const CUSTOMS_ITEMS = [
  "philippine_currency",
  "foreign_currency",
  "gambling_paraphernalia",
  "cosmetics_skincare",
  "dangerous_drugs",
  "firearms_ammunitions",
  "alcohol_tobacco",
  "foodstuff_fruit",
  "mobile_phones",
  "cremains_human",
  "jewelry_gold",
  "other_goods",
] as const;
export type CustomsItem = (typeof CUSTOMS_ITEMS)[number];

const customsAnswers = Object.fromEntries(CUSTOMS_ITEMS.map((item) => [item, yesNo])) as {
  readonly [K in CustomsItem]: typeof yesNo;
};

/**
 * The entries behind one "Yes" customs answer: `type` is the item's info key
 * (`gambling_paraphernalia_info`), each detail holds `{item}_description`, `{item}_quantity`
 * and `{item}_amount_in_usd`.
 */
export const CustomDeclarationEntry = Schema.Struct({
  type: Schema.Literals(CUSTOMS_ITEMS.map((item) => `${item}_info` as const)),
  details: Schema.Array(Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite]))),
});

/** One line of the currency declaration's instrument list. Amounts are decimal strings. */
export const InstrumentInformation = Schema.Struct({
  id: Schema.String,
  currency: Schema.String,
  monetaryInstrument: Schema.String,
  amount: Schema.String,
});

export const OrderApplication = Schema.Struct({
  // Travel
  transportation_type: Schema.optionalKey(Schema.Literals(["air", "sea"])),
  travel_type: Schema.optionalKey(Schema.Literals(["arrival", "departure"])),
  date_of_departure: text,
  date_of_return: text,
  date_of_transit: text,
  date_of_travel: text,
  // Arrival by air
  family_members_below_18: count,
  family_members_18_and_above: count,
  baggage_checked_in: count,
  baggage_hand_carried: count,
  first_time_visiting_philippines: yesNo,
  // Customs: the answers and the total; the entries' descriptions are personal
  total_amount_of_goods: text,
  amount_declaration: text,
  ...customsAnswers,
  // Currency declaration: the answers and dates; the parties and instruments are personal
  date_of_bsp: text,
  sources_of_currencies_salary: text,
  purpose_of_transport_leisure: text,
  physically_transferred: text,
  date_of_last_travel_philippines: text,
  date_of_bill_of_landing: text,
});
export type OrderApplication = typeof OrderApplication.Type;

const currencyParty = {
  business_name: text,
  first_name: text,
  middle_name: text,
  last_name: text,
  suffix: text,
  occupation: text,
  country: text,
  state_details: text,
  municipality_details: text,
  barangay: text,
  street: text,
  pincode: text,
};

type Prefixed<P extends string, F> = { readonly [K in keyof F & string as `${P}${K}`]: F[K] };

const prefixed = <P extends string, F extends Schema.Struct.Fields>(prefix: P, fields: F) =>
  Object.fromEntries(Object.entries(fields).map(([key, s]) => [prefix + key, s])) as Prefixed<P, F>;

export const OrderPersonalFields = {
  // Identity
  passport_type: text,
  citizenship_id: text,
  citizenship: text,
  citizenshipCountry: text,
  first_name: NonEmptyText,
  middle_name: text,
  last_name: NonEmptyText,
  suffix: text,
  sex: text,
  date_of_birth: text,
  country_of_birth: text,
  occupation: text,
  overseas_filipino_worker: Schema.optionalKey(Schema.Literals([0, 1])),
  ofw_classification: text,
  signature_name: text,
  applicant_photo: text,
  // Passport
  passport_number: text,
  passport_issued_country: text,
  date_of_issued: text,
  // Contact: the e-mail is what the public tracker matches on, so an order always has one
  email: EmailAddress,
  confirm_email: text,
  phone_number: text,
  country_code: text,
  country_phone_code: text,
  // Permanent address
  permanent_country_of_residence: text,
  permanent_state_details: text,
  permanent_municipality_details: text,
  permanent_barangay: text,
  address: text,
  address_line_2: text,
  // Where the traveller stays (when not a hotel)
  contact_information: text,
  state_details: text,
  municipality_details: text,
  house_no: text,
  destination_address: text,
  // The trip as typed (personal since OrderPlaced version 2)
  purpose_of_visit: text,
  traveller_type: text,
  vessel_name: text,
  cabin_number: text,
  name_of_airline: text,
  flight_number: text,
  country_of_origin: text,
  seaport_of_origin: text,
  airport_of_origin: text,
  special_flight_number: text,
  country_of_transit: text,
  airport_of_transit: text,
  seaport_of_transit: text,
  seat_number: text,
  country_of_destination: text,
  seaport_of_destination: text,
  seaport: text,
  airport_of_arrival_departure: text,
  airport_of_destination: text,
  destination_type: text,
  hotel_details: text,
  hotel_name: text,
  hotel_other: text,
  airport_details: text,
  // Customs entries and currency instruments: descriptions and ids as typed
  custom_declaration_details: Schema.optionalKey(Schema.Array(CustomDeclarationEntry)),
  instrument_information: Schema.optionalKey(Schema.Array(InstrumentInformation)),
  no_of_days_philippines: text,
  name_of_courrier: text,
  bill_of_landing: text,
  // Health declaration
  country_visited: text,
  infectious_disease: text,
  sick_in_past_thirty_days: text,
  symtoms: text,
  // Currency declaration parties
  ...prefixed("owner_currency_declaration_", currencyParty),
  ...prefixed("recipient_currency_declaration_", currencyParty),
};

export const OrderPersonalData = Schema.Struct(OrderPersonalFields);
export type OrderPersonalData = typeof OrderPersonalData.Type;
