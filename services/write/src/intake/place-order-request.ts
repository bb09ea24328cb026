import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import {
  CUSTOMS_ITEMS,
  EmailAddress,
  LandingDomain,
  OrderApplication,
  OrderId,
  ProcessingMode,
  type CustomsItem,
  type IsoDate,
  type IsoDateTime,
  type OrderPersonalData,
  type OrderPlaced,
  type Payment,
} from "@etd/events";
import { EMAIL_ADDRESS_PATTERN, isEmailAddress, MAX_EMAIL_LENGTH } from "@etd/events/email-address";
import { matches, padded } from "@etd/events/checks";
import { IntakeError, intakeErrorsOf } from "./intake-error.ts";
import {
  amount,
  choice,
  count,
  currency,
  day,
  optional,
  optionalList,
  required,
  requiredText,
  text,
  timestamp,
  withDefault,
  yesNo,
  yesNoFlag,
} from "./wire-values.ts";

/*
 * The body the customer-facing site POSTs to place a paid order (DESIGN §4 intake): one FLAT
 * JSON object with the spec's own snake_case names (001 §3), the way the site's form holds
 * them. Decoding normalises it and splits it into what OrderPlaced carries: the processing
 * facts, the application, and the personal part that is encrypted per order.
 *
 * Decisions where the spec is silent:
 * - processing_mode: "Regular Processing", "Standard Processing" and "standard" mean standard
 *   (001 §2 shows Regular as Standard); "Priority Processing" and "priority" mean priority.
 * - processing_date defaults to created_at's day in UTC, the day the store keeps dates in, and
 *   may not be before it; an order due later is a future order (DESIGN §4).
 * - created_at must carry a time zone (Z or an offset) and is stored in UTC.
 * - Yes/no answers (the twelve customs items, health answers, first visit, the currency flags)
 *   accept Yes/No, yes/no, "1"/"0", 1/0 and true/false and are stored as "Yes"/"No";
 *   overseas_filipino_worker is stored as 1/0 (001 §3).
 * - Counts accept numbers or numeric strings and default to 0 (001 §2); money is stored as a
 *   two-decimal string ("45.00"); dates are YYYY-MM-DD.
 * - null or "" means "not answered": the key is left out, as if the site had not sent it.
 * - confirm_email is compared case-insensitively: e-mail providers ignore case, and refusing a
 *   paid order over "Juan@" vs "juan@" helps nobody.
 * - process_status, assign_to and process_month are the back office's, and like any other key
 *   not listed here they are refused rather than silently dropped.
 * - payment_amount and payment_currency (ours, optional, sent together): what the customer paid,
 *   which the invoice states (ADMIN-6). An order placed without them can have no invoice.
 */

/** Spellings of processing_mode → the mode the order is processed in. */
export const PROCESSING_MODE_SPELLINGS = {
  "Regular Processing": "standard",
  "Standard Processing": "standard",
  standard: "standard",
  "Priority Processing": "priority",
  priority: "priority",
} as const satisfies Record<string, ProcessingMode>;

const ORDER_ID_MESSAGE = 'An order ID is 6 to 20 digits, like "100234".';

const orderId = {
  forms: [
    Schema.String.check(matches(padded("[0-9]{6,20}"), ORDER_ID_MESSAGE)),
    Schema.Int.check(Schema.isBetween({ minimum: 100_000, maximum: Number.MAX_SAFE_INTEGER })),
  ],
  message: ORDER_ID_MESSAGE,
  to: OrderId,
  normalise: (raw: string | number) => String(raw).trim(),
  description: "The order number the customer paid for; digits only, sent as a string or a number.",
};

/** The one address rule (it checks the length first): an order whose address mail would refuse could never be mailed or invoiced. */
const email = {
  forms: [
    Schema.String.check(
      Schema.isMaxLength(MAX_EMAIL_LENGTH),
      // The document states the shape; the rule's lengths (64 before the '@', 63 a label) are beyond it.
      Schema.makeFilter((s: string) => isEmailAddress(s.trim()), { toJsonSchema: () => ({ pattern: padded(EMAIL_ADDRESS_PATTERN).source }) }),
    ),
  ],
  message: "Must be a valid e-mail address, like name@example.com.",
  to: EmailAddress,
  normalise: (raw: string) => raw.trim(),
  description:
    "An address a mail can go to (ADR 0028): plain ASCII name@host.tld, at most 254 characters; " +
    "no display name, comma, semicolon, double quote, blank or second '@'; an international domain in its Punycode form.",
};

const processingMode = choice(
  ["standard", "priority"],
  PROCESSING_MODE_SPELLINGS,
  "What the customer paid for; Regular/Standard Processing is standard.",
);
const landingDomain = choice(
  LandingDomain.literals,
  { primary: "primary", secondary: "secondary" },
  "Which of the two customer-facing sites (brands) the order came from.",
);
const transportationType = choice(["air", "sea"], { air: "air", sea: "sea", Air: "air", Sea: "sea" });
const travelType = choice(["arrival", "departure"], {
  arrival: "arrival",
  departure: "departure",
  Arrival: "arrival",
  Departure: "departure",
});

const optionalYesNo = () => optional(yesNo);
const optionalText = () => optional(text);

const customsAnswers = Object.fromEntries(
  CUSTOMS_ITEMS.map((item) => [item, optionalYesNo()]),
) as { readonly [K in CustomsItem]: ReturnType<typeof optionalYesNo> };

/** One "Yes" customs answer's entries; the detail keys are named after the item (001 §3). */
const customsEntry = (item: CustomsItem) =>
  Schema.Struct({
    type: Schema.Literal(`${item}_info`),
    details: Schema.Array(
      Schema.Struct({
        [`${item}_description`]: required(requiredText),
        [`${item}_quantity`]: required(count),
        [`${item}_amount_in_usd`]: required(amount),
      }),
    ).check(
      Schema.isMinLength(1, { message: "Must list at least one entry." }),
      Schema.isMaxLength(50, { message: "Must list at most 50 entries." }),
    ),
  });

const CustomDeclarationEntry = Schema.Union(CUSTOMS_ITEMS.map(customsEntry)).annotate({
  expected:
    'an entry whose "type" is a customs item\'s info key (like "cosmetics_skincare_info") ' +
    'with its "details"',
});

const InstrumentInformation = Schema.Struct({
  id: required(requiredText),
  currency: required(requiredText),
  monetaryInstrument: required(requiredText),
  amount: required(amount),
});

const currencyParty = <P extends string>(prefix: P) =>
  Object.fromEntries(
    [
      "business_name",
      "first_name",
      "middle_name",
      "last_name",
      "suffix",
      "occupation",
      "country",
      "state_details",
      "municipality_details",
      "barangay",
      "street",
      "pincode",
    ].map((key) => [prefix + key, optionalText()]),
  ) as { readonly [K in CurrencyPartyKey as `${P}${K}`]: ReturnType<typeof optionalText> };
type CurrencyPartyKey =
  | "business_name"
  | "first_name"
  | "middle_name"
  | "last_name"
  | "suffix"
  | "occupation"
  | "country"
  | "state_details"
  | "municipality_details"
  | "barangay"
  | "street"
  | "pincode";

/** The keys that become OrderPlaced's own fields rather than part of the application. */
type ProcessingKey =
  | "order_id"
  | "processing_mode"
  | "landing_domain"
  | "processing_date"
  | "created_at"
  | "payment_amount"
  | "payment_currency";

const fields = {
  // Processing (001 §3); process_status, assign_to and process_month are the back office's.
  order_id: required(orderId),
  processing_mode: required(processingMode),
  landing_domain: required(landingDomain),
  processing_date: optional({
    ...day,
    description: "The day work may start, YYYY-MM-DD; defaults to created_at's day (UTC).",
  }),
  created_at: required({
    ...timestamp,
    description: "When the customer submitted the order on the site, with its time zone.",
  }),
  payment_amount: optional({
    ...amount,
    description: 'What the customer paid, like "49.00"; sent with payment_currency. The invoice states it.',
  }),
  payment_currency: optional({
    ...currency,
    description: 'The currency of payment_amount, ISO 4217, like "USD".',
  }),
  // Identity and contact
  email: required(email),
  confirm_email: optional(email),
  signature_name: optional(text),
  applicant_photo: optional(text),
  passport_type: optional(text),
  overseas_filipino_worker: optional(yesNoFlag),
  ofw_classification: optional(text),
  first_name: required(requiredText),
  middle_name: optional(text),
  last_name: required(requiredText),
  suffix: optional(text),
  sex: optional(text),
  date_of_birth: optional(day),
  phone_number: optional(text),
  country_code: optional(text),
  country_phone_code: optional(text),
  citizenship_id: optional(text),
  citizenship: optional(text),
  citizenshipCountry: optional(text),
  country_of_birth: optional(text),
  passport_number: optional(text),
  passport_issued_country: optional(text),
  date_of_issued: optional(day),
  occupation: optional(text),
  // Address
  permanent_country_of_residence: optional(text),
  permanent_state_details: optional(text),
  permanent_municipality_details: optional(text),
  permanent_barangay: optional(text),
  address: optional(text),
  address_line_2: optional(text),
  // Travel
  transportation_type: optional(transportationType),
  travel_type: optional(travelType),
  purpose_of_visit: optional(text),
  traveller_type: optional(text),
  vessel_name: optional(text),
  cabin_number: optional(text),
  name_of_airline: optional(text),
  flight_number: optional(text),
  country_of_origin: optional(text),
  seaport_of_origin: optional(text),
  airport_of_origin: optional(text),
  date_of_departure: optional(day),
  date_of_return: optional(day),
  special_flight_number: optional(text),
  country_of_transit: optional(text),
  airport_of_transit: optional(text),
  seaport_of_transit: optional(text),
  date_of_transit: optional(day),
  seat_number: optional(text),
  // Destination
  country_of_destination: optional(text),
  seaport_of_destination: optional(text),
  seaport: optional(text),
  airport_of_arrival_departure: optional(text),
  airport_of_destination: optional(text),
  date_of_travel: optional(day),
  destination_type: optional(text),
  hotel_details: optional(text),
  hotel_name: optional(text),
  hotel_other: optional(text),
  contact_information: optional(text),
  state_details: optional(text),
  municipality_details: optional(text),
  house_no: optional(text),
  airport_details: optional(text),
  destination_address: optional(text),
  // Health and arrival
  country_visited: optional(yesNo),
  infectious_disease: optional(yesNo),
  sick_in_past_thirty_days: optional(yesNo),
  symtoms: optional(yesNo),
  family_members_below_18: withDefault(count, 0),
  family_members_18_and_above: withDefault(count, 0),
  baggage_checked_in: withDefault(count, 0),
  baggage_hand_carried: withDefault(count, 0),
  first_time_visiting_philippines: optional(yesNo),
  // Customs
  total_amount_of_goods: optional(yesNo),
  amount_declaration: optional(amount),
  ...customsAnswers,
  custom_declaration_details: optionalList(
    Schema.Array(CustomDeclarationEntry).check(
      Schema.isMaxLength(CUSTOMS_ITEMS.length, {
        message: `Must list at most ${String(CUSTOMS_ITEMS.length)} entries, one per item.`,
      }),
    ),
  ),
  // Currency declaration
  ...currencyParty("owner_currency_declaration_"),
  ...currencyParty("recipient_currency_declaration_"),
  instrument_information: optionalList(
    Schema.Array(InstrumentInformation).check(
      Schema.isMaxLength(20, { message: "Must list at most 20 instruments." }),
    ),
  ),
  date_of_bsp: optional(day),
  sources_of_currencies_salary: optional(yesNo),
  purpose_of_transport_leisure: optional(yesNo),
  physically_transferred: optional(yesNo),
  no_of_days_philippines: optional(text),
  date_of_last_travel_philippines: optional(day),
  name_of_courrier: optional(text),
  bill_of_landing: optional(text),
  date_of_bill_of_landing: optional(day),
};

const utcDay = (instant: IsoDateTime) => instant.slice(0, 10);

/** The place-order request body (flat, snake_case, 001 §3) and its normalised form. */
export const PlaceOrderRequest = Schema.Struct(fields)
  .annotate({
    identifier: "PlaceOrderRequest",
    title: "Place a paid order",
    description:
      "The application the customer-facing site submits for a paid order, as one flat object " +
      "with the specification's snake_case field names (001 §3). Unknown keys are refused; " +
      "null or an empty string means not answered.",
  })
  // Cross-field rules run once every field is valid on its own.
  .check(
    Schema.makeFilter((request) => {
      const issues: Schema.FilterIssue[] = [];
      if (
        request.confirm_email !== undefined &&
        request.confirm_email.toLowerCase() !== request.email.toLowerCase()
      ) {
        issues.push({ path: ["confirm_email"], issue: "The e-mail addresses do not match." });
      }
      // A payment is an amount in a currency: one without the other cannot be invoiced.
      if (request.payment_amount !== undefined && request.payment_currency === undefined) {
        issues.push({ path: ["payment_currency"], issue: "Must be sent with payment_amount." });
      }
      if (request.payment_currency !== undefined && request.payment_amount === undefined) {
        issues.push({ path: ["payment_amount"], issue: "Must be sent with payment_currency." });
      }
      if (request.processing_date !== undefined && request.processing_date < utcDay(request.created_at)) {
        issues.push({
          path: ["processing_date"],
          issue: "Must not be before the day the order was created (created_at).",
        });
      }
      return issues;
    }),
  );

/** The body as the site sends it. */
export type PlaceOrderRequestBody = typeof PlaceOrderRequest.Encoded;
/** The body after decoding: normalised values, unanswered keys left out, counts filled in. */
export type PlaceOrderRequestFields = typeof PlaceOrderRequest.Type;

/** What OrderPlaced's data needs, with the personal part in plain form (encrypted later). */
export interface PlaceOrderInput {
  readonly orderId: OrderId;
  readonly processingMode: ProcessingMode;
  readonly landingDomain: LandingDomain;
  readonly processingDate: IsoDate;
  readonly createdAt: IsoDateTime;
  readonly application: OrderApplication;
  readonly personal: OrderPersonalData;
  readonly payment?: Payment;
}

const APPLICATION_KEYS: ReadonlySet<string> = new Set(Object.keys(OrderApplication.fields));

/** Splits decoded fields into OrderPlaced's shape. Pure; the key sets are checked below. */
export function toPlaceOrderInput(request: PlaceOrderRequestFields): PlaceOrderInput {
  const {
    order_id,
    processing_mode,
    landing_domain,
    processing_date,
    created_at,
    payment_amount,
    payment_currency,
    ...answers
  } = request;
  const application: Record<string, unknown> = {};
  const personal: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answers)) {
    (APPLICATION_KEYS.has(key) ? application : personal)[key] = value;
  }
  return {
    orderId: order_id,
    processingMode: processing_mode,
    landingDomain: landing_domain,
    // The first ten characters of a UTC timestamp are a real calendar day.
    processingDate: processing_date ?? (utcDay(created_at) as IsoDate),
    createdAt: created_at,
    // The compile-time checks below guarantee each key lands in the part that declares it
    // (OrderApplication's keys are all optional, so TypeScript needs no assertion for it).
    application,
    personal: personal as OrderPersonalData,
    ...(payment_amount === undefined || payment_currency === undefined ? {} : { payment: { amount: payment_amount, currency: payment_currency } }),
  };
}

const decodeRequest = Schema.decodeUnknownResult(PlaceOrderRequest);

/**
 * Decodes a place-order request body into what OrderPlaced needs, or every field-level problem
 * at once. Unknown keys are refused, so a misspelt field is not silently lost.
 */
export function decodePlaceOrderRequest(input: unknown): Result.Result<PlaceOrderInput, IntakeError> {
  return Result.mapBoth(decodeRequest(input, { errors: "all", onExcessProperty: "error" }), {
    onFailure: (error) => new IntakeError(intakeErrorsOf(error.issue)),
    onSuccess: toPlaceOrderInput,
  });
}

// Compile-time checks that the flat request and OrderPlaced's parts describe the same fields:
// every key of the request but the processing ones belongs to exactly one part, every key of
// either part is in the request, and each part's values have the types the catalogue wants.
type Equals<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type AnswerKey = Exclude<keyof PlaceOrderRequestFields, ProcessingKey>;
type _SplitCoversRequest = Assert<
  Equals<AnswerKey, keyof OrderApplication | keyof OrderPersonalData>
>;
type _PartsAreDisjoint = Assert<Equals<keyof OrderApplication & keyof OrderPersonalData, never>>;
type _ApplicationTypes = Assert<
  Pick<PlaceOrderRequestFields, keyof OrderApplication> extends OrderApplication ? true : false
>;
type _PersonalTypes = Assert<
  Pick<PlaceOrderRequestFields, keyof OrderPersonalData> extends OrderPersonalData ? true : false
>;
type _InputFitsOrderPlaced = Assert<PlaceOrderInput extends OrderPlaced["data"] ? true : false>;
