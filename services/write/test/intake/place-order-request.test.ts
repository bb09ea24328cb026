import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import { decodeEvent, encodeEvent, type OrderPlaced } from "@etd/events";
import { CUSTOMS_ANSWERS } from "@etd/events/samples";
import {
  decodePlaceOrderRequest,
  PlaceOrderRequest,
  type PlaceOrderInput,
} from "../../src/intake/place-order-request.ts";
import type { IntakeFieldError } from "../../src/intake/intake-error.ts";

/** A realistic paid order, as the customer-facing site posts it (001 §3 names). */
const body = {
  order_id: "100234",
  email: "juan.delacruz@example.com",
  confirm_email: "juan.delacruz@example.com",
  processing_mode: "Priority Processing",
  signature_name: "Juan R. Dela Cruz",
  applicant_photo: "photos/100234.jpg",
  passport_type: "Regular",
  overseas_filipino_worker: 1,
  ofw_classification: "Land-based",
  first_name: "Juan",
  middle_name: "Reyes",
  last_name: "Dela Cruz",
  sex: "Male",
  date_of_birth: "1986-07-02",
  phone_number: "9171234567",
  country_code: "PH",
  country_phone_code: "63",
  citizenship_id: "PH",
  citizenship: "Philippines",
  citizenshipCountry: "Philippines",
  country_of_birth: "Philippines",
  passport_number: "P1234567A",
  passport_issued_country: "Philippines",
  date_of_issued: "2021-05-11",
  occupation: "Nurse",
  permanent_country_of_residence: "United States",
  permanent_state_details: "California",
  permanent_municipality_details: "Daly City",
  address: "1450 Skyline Blvd",
  transportation_type: "air",
  travel_type: "arrival",
  purpose_of_visit: "holiday_or_vacation",
  traveller_type: "Overseas Filipino Worker",
  name_of_airline: "Philippine Airlines",
  flight_number: "PR 103",
  country_of_origin: "United States",
  airport_of_origin: "Los Angeles International Airport",
  date_of_departure: "2025-03-19",
  date_of_return: "2025-04-10",
  seat_number: "34C",
  country_of_destination: "Philippines",
  airport_of_arrival_departure: "Ninoy Aquino International Airport",
  airport_of_destination: "Ninoy Aquino International Airport",
  date_of_travel: "2025-03-21",
  destination_type: "hotel",
  hotel_details: "Manila",
  hotel_name: "other",
  hotel_other: "Casa Mabini Inn",
  country_visited: "No",
  infectious_disease: "No",
  sick_in_past_thirty_days: "No",
  symtoms: "No",
  family_members_below_18: 1,
  baggage_checked_in: "2",
  baggage_hand_carried: 1,
  first_time_visiting_philippines: "No",
  ...CUSTOMS_ANSWERS,
  custom_declaration_details: [
    {
      type: "cosmetics_skincare_info",
      details: [
        {
          cosmetics_skincare_description: "Sunscreen",
          cosmetics_skincare_quantity: 3,
          cosmetics_skincare_amount_in_usd: "45.00",
        },
      ],
    },
  ],
  owner_currency_declaration_first_name: "Juan",
  owner_currency_declaration_last_name: "Dela Cruz",
  owner_currency_declaration_country: "United States",
  owner_currency_declaration_street: "1450 Skyline Blvd",
  owner_currency_declaration_pincode: "94015",
  recipient_currency_declaration_business_name: "Golden Peso Exchange",
  instrument_information: [{ id: "1", currency: "USD", monetaryInstrument: "Cash", amount: "12000.00" }],
  date_of_bsp: "2025-03-10",
  sources_of_currencies_salary: "Yes",
  purpose_of_transport_leisure: "Yes",
  physically_transferred: "Yes",
  no_of_days_philippines: "20",
  date_of_last_travel_philippines: "2023-12-18",
  landing_domain: "primary",
  processing_date: "2025-03-20",
  created_at: "2025-03-14T07:59:48.000Z",
};

const placed = (input: unknown): PlaceOrderInput => {
  const decoded = decodePlaceOrderRequest(input);
  if (Result.isFailure(decoded)) throw new Error(decoded.failure.message);
  return decoded.success;
};

const errorsOf = (input: unknown): readonly IntakeFieldError[] => {
  const decoded = decodePlaceOrderRequest(input);
  if (Result.isSuccess(decoded)) throw new Error("expected the request to be refused");
  return decoded.failure.errors;
};

const withBody = (changes: Record<string, unknown>) => ({ ...body, ...changes });
const without = (...keys: string[]) =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));

describe("a place-order request", () => {
  it("becomes OrderPlaced's data: processing facts, the application and the personal part", () => {
    const input = placed(body);

    expect(input).toMatchObject({
      orderId: "100234",
      processingMode: "priority",
      landingDomain: "primary",
      processingDate: "2025-03-20",
      createdAt: "2025-03-14T07:59:48.000Z",
    });
    expect(input.application).toMatchObject({
      transportation_type: "air",
      cosmetics_skincare: "Yes",
    });
    expect(input.personal).toMatchObject({
      first_name: "Juan",
      passport_number: "P1234567A",
      email: "juan.delacruz@example.com",
      recipient_currency_declaration_business_name: "Golden Peso Exchange",
      // Issue 25: the trip as typed is sealed too, so a permanent delete leaves none of it.
      citizenship_id: "PH",
      flight_number: "PR 103",
      instrument_information: [{ id: "1", currency: "USD", monetaryInstrument: "Cash", amount: "12000.00" }],
    });
    // Nothing the customer typed in the part that survives a permanent delete: only closed-set values.
    expect(input.application).not.toHaveProperty("first_name");
    expect(input.application).not.toHaveProperty("passport_number");
    expect(input.application).not.toHaveProperty("flight_number");
    expect(Object.values(input.application).filter((value) => typeof value === "string" && !/^(Yes|No|air|sea|arrival|departure|\d{4}-\d{2}-\d{2}|\d+\.\d{2})$/.test(value))).toEqual([]);
  });

  it("encodes as an OrderPlaced event and reads back unchanged", () => {
    const data = placed(body);
    const event: OrderPlaced = {
      type: "OrderPlaced",
      data,
      metadata: {
        actor: { kind: "system", name: "order-intake" },
        correlationId: "req-01JQ8Z6W3K4V5",
        occurredAt: "2025-03-14T08:00:01.000Z" as OrderPlaced["metadata"]["occurredAt"],
      },
    };
    const encoded = encodeEvent(event);
    const read = decodeEvent(encoded);

    expect(Result.isSuccess(read) && read.success.data).toEqual(data);
  });

  it("defaults the processing date to the UTC day of created_at (future orders, ADMIN-3)", () => {
    expect(placed(without("processing_date")).processingDate).toBe("2025-03-14");
    // 02:30 in Manila is still the 13th in UTC.
    const manila = placed(withBody({ created_at: "2025-03-14T02:30:00+08:00", processing_date: null }));
    expect(manila).toMatchObject({ createdAt: "2025-03-13T18:30:00.000Z", processingDate: "2025-03-13" });
  });

  it("keeps a later processing date: the order is a future order until then", () => {
    expect(placed(withBody({ processing_date: "2025-07-01" })).processingDate).toBe("2025-07-01");
  });

  it("fills the arrival counts with 0 when they are left out (ORDER-5)", () => {
    const input = placed(without("family_members_below_18", "baggage_checked_in", "baggage_hand_carried"));
    expect(input.application).toMatchObject({
      family_members_below_18: 0,
      family_members_18_and_above: 0,
      baggage_checked_in: 0,
      baggage_hand_carried: 0,
    });
  });

  it("treats null and blank answers as not answered", () => {
    const input = placed(withBody({ middle_name: "", suffix: null, address_line_2: "   ", jewelry_gold: null }));
    expect(input.personal).not.toHaveProperty("middle_name");
    expect(input.personal).not.toHaveProperty("suffix");
    expect(input.personal).not.toHaveProperty("address_line_2");
    expect(input.application).not.toHaveProperty("jewelry_gold");
  });

  it("trims text and takes numbers where text is expected as their digits", () => {
    const input = placed(withBody({ first_name: "  Juan ", country_phone_code: 63, order_id: 100234 }));
    expect(input.orderId).toBe("100234");
    expect(input.personal).toMatchObject({ first_name: "Juan", country_phone_code: "63" });
  });
});

describe("normalisation", () => {
  it.each([
    ["Regular Processing", "standard"],
    ["Standard Processing", "standard"],
    ["standard", "standard"],
    ["Priority Processing", "priority"],
    ["priority", "priority"],
  ])("processing_mode %j is %j (ORDER-4)", (spelling, mode) => {
    expect(placed(withBody({ processing_mode: spelling })).processingMode).toBe(mode);
  });

  it.each([
    ["Yes", "Yes"],
    ["yes", "Yes"],
    ["1", "Yes"],
    [1, "Yes"],
    [true, "Yes"],
    ["No", "No"],
    ["no", "No"],
    ["0", "No"],
    [0, "No"],
    [false, "No"],
  ])("yes/no answer %j is stored as %j", (given, stored) => {
    const input = placed(withBody({ mobile_phones: given, symtoms: given, physically_transferred: given }));
    expect(input.application.mobile_phones).toBe(stored);
    expect(input.application.physically_transferred).toBe(stored);
    expect(input.personal.symtoms).toBe(stored);
  });

  it("stores overseas_filipino_worker as 1 or 0 (ORDER-5: 0 is No)", () => {
    expect(placed(withBody({ overseas_filipino_worker: "yes" })).personal.overseas_filipino_worker).toBe(1);
    expect(placed(withBody({ overseas_filipino_worker: "No" })).personal.overseas_filipino_worker).toBe(0);
  });

  it("accepts counts as numbers or numeric strings", () => {
    const input = placed(withBody({ family_members_18_and_above: " 3 ", baggage_checked_in: 2 }));
    expect(input.application).toMatchObject({ family_members_18_and_above: 3, baggage_checked_in: 2 });
  });

  it("stores money with two decimals and transport words in lower case", () => {
    const input = placed(
      withBody({
        amount_declaration: 450,
        transportation_type: "Sea",
        travel_type: "Departure",
        instrument_information: [{ id: 1, currency: "PHP", monetaryInstrument: "Cash", amount: "75000.5" }],
      }),
    );
    expect(input.application).toMatchObject({
      amount_declaration: "450.00",
      transportation_type: "sea",
      travel_type: "departure",
    });
    expect(input.personal.instrument_information).toEqual([{ id: "1", currency: "PHP", monetaryInstrument: "Cash", amount: "75000.50" }]);
  });

  it("normalises customs entries: quantities to numbers, amounts to two decimals (ORDER-6)", () => {
    const input = placed(
      withBody({
        alcohol_tobacco: "yes",
        custom_declaration_details: [
          {
            type: "alcohol_tobacco_info",
            details: [
              { alcohol_tobacco_description: "Whisky 1L", alcohol_tobacco_quantity: "2", alcohol_tobacco_amount_in_usd: 55 },
              { alcohol_tobacco_description: "Cigars (box)", alcohol_tobacco_quantity: 1, alcohol_tobacco_amount_in_usd: "150" },
            ],
          },
        ],
      }),
    );
    expect(input.personal.custom_declaration_details).toEqual([
      {
        type: "alcohol_tobacco_info",
        details: [
          { alcohol_tobacco_description: "Whisky 1L", alcohol_tobacco_quantity: 2, alcohol_tobacco_amount_in_usd: "55.00" },
          { alcohol_tobacco_description: "Cigars (box)", alcohol_tobacco_quantity: 1, alcohol_tobacco_amount_in_usd: "150.00" },
        ],
      },
    ]);
  });

  it("compares confirm_email without regard to case", () => {
    expect(Result.isSuccess(decodePlaceOrderRequest(withBody({ confirm_email: "Juan.DelaCruz@example.com" })))).toBe(true);
  });
});

describe("refusals name the field and say what it accepts", () => {
  it("a missing e-mail", () => {
    expect(errorsOf(without("email"))).toEqual([{ field: "email", message: "This field is required." }]);
  });

  it("an invalid e-mail", () => {
    expect(errorsOf(withBody({ email: "juan at example" }))).toEqual([
      { field: "email", message: "Must be a valid e-mail address, like name@example.com." },
    ]);
  });

  it.each(["12345", "100234a", "123456789012345678901", ""])("a bad order id %j", (orderId) => {
    expect(errorsOf(withBody({ order_id: orderId }))).toEqual([
      { field: "order_id", message: 'An order ID is 6 to 20 digits, like "100234".' },
    ]);
  });

  it("a confirm_email that differs from the e-mail", () => {
    expect(errorsOf(withBody({ confirm_email: "juan@example.org" }))).toEqual([
      { field: "confirm_email", message: "The e-mail addresses do not match." },
    ]);
  });

  it("an unknown key, and the back office's own keys", () => {
    expect(errorsOf(withBody({ favourite_colour: "blue", process_status: "Completed" }))).toEqual([
      { field: "favourite_colour", message: "Unknown field; a place-order request does not have it." },
      { field: "process_status", message: "Set by the back office; a place-order request cannot set it." },
    ]);
  });

  it.each(["2025-02-30", "14/03/2025", "2025-3-14", "tomorrow"])("a bad date %j", (date) => {
    expect(errorsOf(withBody({ processing_date: date, date_of_birth: date }))).toEqual([
      { field: "processing_date", message: "Must be a real date written YYYY-MM-DD, like 2025-03-14." },
      { field: "date_of_birth", message: "Must be a real date written YYYY-MM-DD, like 2025-03-14." },
    ]);
  });

  it("a created_at without a time zone", () => {
    expect(errorsOf(withBody({ created_at: "2025-03-14 07:59:48" }))).toEqual([
      {
        field: "created_at",
        message: "Must be a date and time with a time zone, like 2025-03-14T07:59:48Z or 2025-03-14T15:59:48+08:00.",
      },
    ]);
  });

  it("a processing date before the order was created", () => {
    expect(errorsOf(withBody({ processing_date: "2025-03-13" }))).toEqual([
      { field: "processing_date", message: "Must not be before the day the order was created (created_at)." },
    ]);
  });

  it("an unknown processing mode or landing domain", () => {
    expect(errorsOf(withBody({ processing_mode: "Express", landing_domain: "tertiary" }))).toEqual([
      {
        field: "processing_mode",
        message:
          'Must be "Regular Processing", "Standard Processing", "standard", "Priority Processing" or "priority".',
      },
      { field: "landing_domain", message: 'Must be "primary" or "secondary".' },
    ]);
  });

  it("bad answers and counts", () => {
    expect(errorsOf(withBody({ mobile_phones: "maybe", baggage_checked_in: -1, family_members_below_18: 1.5 }))).toEqual(
      expect.arrayContaining([
        { field: "mobile_phones", message: 'Must be "Yes" or "No" (yes/no, 1/0 and true/false are accepted too).' },
        { field: "baggage_checked_in", message: "Must be a whole number of 0 or more." },
        { field: "family_members_below_18", message: "Must be a whole number of 0 or more." },
      ]),
    );
  });

  it("problems inside customs entries, with their path", () => {
    const errors = errorsOf(
      withBody({
        custom_declaration_details: [
          {
            type: "cosmetics_skincare_info",
            details: [{ cosmetics_skincare_description: "Sunscreen", cosmetics_skincare_quantity: "a lot" }],
          },
          { type: "souvenirs_info", details: [] },
        ],
      }),
    );
    expect(errors).toEqual([
      {
        field: "custom_declaration_details[0].details[0].cosmetics_skincare_quantity",
        message: "Must be a whole number of 0 or more.",
      },
      { field: "custom_declaration_details[0].details[0].cosmetics_skincare_amount_in_usd", message: "This field is required." },
      {
        field: "custom_declaration_details[1]",
        message:
          'Must be an entry whose "type" is a customs item\'s info key (like "cosmetics_skincare_info") with its "details".',
      },
    ]);
  });

  it("every problem at once, so the sender can fix them in one go", () => {
    const errors = errorsOf(withBody({ order_id: "1", email: "", first_name: " ", landing_domain: undefined }));
    expect(errors.map((e) => e.field).sort()).toEqual(["email", "first_name", "landing_domain", "order_id"]);
  });

  it("a body that is not an object", () => {
    for (const input of [null, [], "order", 42]) {
      expect(errorsOf(input)).toEqual([{ field: "body", message: "Must be a JSON object." }]);
    }
  });

  it("reads as one message too, for logs", () => {
    const decoded = decodePlaceOrderRequest(without("email"));
    expect(Result.isFailure(decoded) && decoded.failure).toMatchObject({
      _tag: "IntakeError",
      message: "The order cannot be placed: email: This field is required.",
    });
  });
});

describe("the schema", () => {
  it("generates a JSON Schema document for the API description", () => {
    const document = Schema.toJsonSchemaDocument(PlaceOrderRequest);
    type ObjectSchema = { properties: Record<string, unknown>; required: string[]; description: string };
    const root = document.schema as Partial<ObjectSchema> & { $ref?: string };
    // Inline or behind a $ref, depending on where the identifier lands.
    const definition = (
      root.$ref === undefined ? root : document.definitions[root.$ref.split("/").at(-1) ?? ""]
    ) as ObjectSchema;
    expect(definition.required).toEqual(
      expect.arrayContaining(["order_id", "email", "first_name", "last_name", "processing_mode", "landing_domain", "created_at"]),
    );
    expect(Object.keys(definition.properties)).toEqual(
      expect.arrayContaining(["custom_declaration_details", "instrument_information", "recipient_currency_declaration_pincode"]),
    );
    expect(definition.properties).not.toHaveProperty("process_status");
    expect(definition.description).toContain("snake_case");
  });
});

describe("ADMIN-6: what the customer paid (optional, for the invoice)", () => {
  it("records payment_amount and payment_currency as OrderPlaced's payment, two decimals and a capitalised code", () => {
    expect(placed(withBody({ payment_amount: 79, payment_currency: " usd " })).payment).toEqual({ amount: "79.00", currency: "USD" });
    expect(placed(withBody({ payment_amount: "49.5", payment_currency: "PHP" })).payment).toEqual({ amount: "49.50", currency: "PHP" });
  });

  it("leaves the payment out when the site sends none, as orders placed before it was recorded", () => {
    expect(placed(body)).not.toHaveProperty("payment");
    expect(placed(withBody({ payment_amount: null, payment_currency: "" }))).not.toHaveProperty("payment");
  });

  it("refuses an amount without its currency, or the other way round, and a currency that is not a code", () => {
    expect(errorsOf(withBody({ payment_amount: "49.00" }))).toEqual([{ field: "payment_currency", message: "Must be sent with payment_amount." }]);
    expect(errorsOf(withBody({ payment_currency: "USD" }))).toEqual([{ field: "payment_amount", message: "Must be sent with payment_currency." }]);
    expect(errorsOf(withBody({ payment_amount: "49.00", payment_currency: "dollars" }))).toEqual([
      { field: "payment_currency", message: 'Must be a three-letter ISO 4217 currency code, like "USD".' },
    ]);
  });
});
