import type { OrderDetails } from "@etd/contract";
import { describe, expect, it } from "vitest";
import { easternTime } from "@etd/contract";
import { orderSections, photoHref, type RecordSection } from "../src/features/orders/sections/order-rows.ts";

/*
 * Which sections and rows the order page shows for each shape of order (001 §2 "View order",
 * ORDER-4..7), read from the pure row builder the page draws: the labels present and absent per
 * shape, and the format rules.
 */

const base = {
  order_id: "2025041234",
  processing_mode: "Standard Processing",
  processing_mode_value: "standard",
  landing_domain: "primary",
  processing_date: "2025-04-18",
  process_month: "2025-04",
  created_at: "2025-04-18T10:00:00.000Z",
  process_status: "New",
  process_status_label: "New Order",
  assign_to: "",
  version: 1,
  assign_to_id: null,
  refund_date: null,
  transaction_id: null,
  merchant_name: null,
  mailHistory: [],
  invoiceHistory: [],
  uploadDoc: [],
  downloadHistory: [],
  remark: [],
  defencePacks: [],
  personal_data_erased: false,
  email: "maria.santos@example.com",
  confirm_email: "maria.santos@example.com",
  signature_name: "Maria Santos",
  applicant_photo: "photos/2025041234.jpg",
  passport_type: "Regular",
  overseas_filipino_worker: 0,
  first_name: "Maria",
  last_name: "Santos",
  sex: "Female",
  date_of_birth: "1990-07-04",
  phone_number: "9171234567",
  country_code: "PH",
  country_phone_code: "63",
  citizenship: "Philippines",
  country_of_birth: "Philippines",
  passport_number: "P1234567A",
  passport_issued_country: "Philippines",
  date_of_issued: "2020-01-15",
  occupation: "Nurse",
  permanent_country_of_residence: "United States",
  permanent_state_details: "California",
  permanent_municipality_details: "San Diego",
  address: "12 Harbor Drive",
  purpose_of_visit: "returning_resident",
  traveller_type: "Filipino Citizen",
  country_of_origin: "United States",
  date_of_departure: "2025-04-20",
  date_of_return: "2025-05-30",
  country_of_transit: "Japan",
  date_of_transit: "2025-04-21",
  country_of_destination: "Philippines",
  date_of_travel: "2025-04-21",
  destination_type: "hotel",
  hotel_name: "other",
  hotel_other: "Casa Verde Inn",
  country_visited: "No",
  infectious_disease: "No",
  sick_in_past_thirty_days: "No",
  symtoms: "No",
} as const;

const order = (change: Record<string, unknown>): OrderDetails => ({ ...base, ...change });

const AIR = {
  transportation_type: "air",
  name_of_airline: "Philippine Airlines",
  flight_number: "PR 103",
  airport_of_origin: "Los Angeles International",
  airport_of_transit: "Narita",
  airport_of_destination: "Ninoy Aquino International",
  seat_number: "34K",
} as const;

const SEA = {
  transportation_type: "sea",
  vessel_name: "Spectrum of the Seas",
  cabin_number: "9123",
  seaport_of_origin: "Hong Kong",
  seaport_of_transit: "Kaohsiung",
  seaport_of_destination: "Manila South Harbor",
  seat_number: "B12",
} as const;

const titles = (sections: RecordSection[]) => sections.map((s) => s.title);

const section = (sections: RecordSection[], title: string): RecordSection => {
  const found = sections.find((s) => s.title === title);
  if (!found) throw new Error(`no section "${title}" in ${titles(sections).join(", ")}`);
  return found;
};

/** label → value of a section's rows, group titles as "Group › label" for the sub-groups. */
const rows = (sections: RecordSection[], title: string): Record<string, string> =>
  Object.fromEntries(section(sections, title).groups.flatMap((g) => g.rows.map((r) => [g.title ? `${g.title} › ${r.label}` : r.label, r.value])));

const COMMON = ["Order Details", "Personal Information", "Address Information", "Travel Details", "Travel Information", "Destination", "Health Declaration"];

describe("order page record sections per shape (001 §2, ORDER-4..7)", () => {
  it("arrival by air: Other Travel Details and the full customs declaration; arrival's Destination order; no sea rows (ORDER-5, ORDER-6)", () => {
    const sections = orderSections(order({ ...AIR, travel_type: "arrival", family_members_below_18: 2, first_time_visiting_philippines: "No", philippine_currency: "No", foreign_currency: "No", gambling_paraphernalia: "No" }));
    expect(titles(sections)).toEqual([...COMMON, "Other Travel Details", "Customs - General Declaration"]);

    const travel = rows(sections, "Travel Information");
    expect(Object.keys(travel)).toEqual(expect.arrayContaining(["Airline", "Flight Number", "Airport of Origin", "Airport of Transit", "Departure Date to the Philippines", "Departure Date from the Philippines", "Seat or Bed Number"]));
    for (const absent of ["Vessel Name", "Voyage Number (Cabin Number)", "Seaport of Origin", "Seaport of Transit"]) expect(travel).not.toHaveProperty(absent);

    const destination = section(sections, "Destination").groups[0]!.rows.map((r) => r.label);
    expect(destination.slice(0, 2)).toEqual(["Airport of Destination", "Country of Destination"]);
    expect(destination).not.toContain("Return Date");
    expect(rows(sections, "Destination")).toMatchObject({ "Hotel or Resort": "Other", "Other Hotel Name": "Casa Verde Inn", "Destination Type": "Hotel" });

    // ORDER-5: counts default to 0; the first-visit answer shows when given.
    expect(rows(sections, "Other Travel Details")).toEqual({
      "Accompanying Family Members Below 18": "2",
      "Accompanying Family Members 18 and Above": "0",
      "Checked-in Baggage": "0",
      "Hand-carried Baggage": "0",
      "First Time Visiting the Philippines": "No",
    });
    expect(rows(sections, "Customs - General Declaration")).toEqual({ "Philippine Currency": "No", "Foreign Currency": "No", "Gambling Paraphernalia": "No" });
  });

  it("arrival by sea: no Other Travel Details, no customs; vessel, cabin and seaports instead of flights (ORDER-5)", () => {
    const sections = orderSections(order({ ...SEA, travel_type: "arrival", philippine_currency: "No", foreign_currency: "No" }));
    expect(titles(sections)).toEqual(COMMON);
    const travel = rows(sections, "Travel Information");
    expect(travel).toMatchObject({ "Vessel Name": "Spectrum of the Seas", "Voyage Number (Cabin Number)": "9123", "Seaport of Origin": "Hong Kong", "Seaport of Transit": "Kaohsiung", "Departure Date from the Philippines": "05/30/2025" });
    for (const absent of ["Airline", "Flight Number", "Airport of Origin", "Airport of Transit"]) expect(travel).not.toHaveProperty(absent);
    expect(rows(sections, "Travel Details")).toEqual({ "Transportation Type": "Sea", "Travel Type": "Arrival", Citizenship: "Philippines" });
  });

  it("departure by air: customs shows only the two currency answers; Return Date under Destination, not Travel Information (ORDER-6)", () => {
    const sections = orderSections(
      order({ ...AIR, travel_type: "departure", country_of_destination: "Japan", philippine_currency: "No", foreign_currency: "Yes", gambling_paraphernalia: "Yes", total_amount_of_goods: "Yes", amount_declaration: "200" }),
    );
    expect(titles(sections)).toEqual([...COMMON, "Customs - General Declaration"]);
    expect(rows(sections, "Customs - General Declaration")).toEqual({ "Philippine Currency": "No", "Foreign Currency": "Yes" });
    const destination = section(sections, "Destination").groups[0]!.rows.map((r) => r.label);
    expect(destination.slice(0, 2)).toEqual(["Country of Destination", "Airport of Destination"]);
    expect(rows(sections, "Destination")).toMatchObject({ "Return Date": "05/30/2025", "Arrival to Destination Date": "04/21/2025" });
    expect(rows(sections, "Travel Information")).not.toHaveProperty("Departure Date from the Philippines");
    // Currency Yes but no instrument list: no currency declaration (ORDER-7).
    expect(titles(sections)).not.toContain("For Customs - Currency Declaration");
  });

  it("departure by sea: neither Other Travel Details nor customs (ORDER-5, ORDER-6)", () => {
    const sections = orderSections(order({ ...SEA, travel_type: "departure", philippine_currency: "No", foreign_currency: "No" }));
    expect(titles(sections)).toEqual(COMMON);
    expect(rows(sections, "Destination")).toMatchObject({ "Seaport of Destination": "Manila South Harbor", "Return Date": "05/30/2025" });
    expect(rows(sections, "Travel Information")).not.toHaveProperty("Airport of Transit");
  });

  it("customs entries: each yes item's entries numbered (n) with description, quantity and amount (ORDER-6)", () => {
    const sections = orderSections(
      order({
        ...AIR,
        travel_type: "arrival",
        total_amount_of_goods: "Yes",
        amount_declaration: "1250.00",
        philippine_currency: "No",
        foreign_currency: "No",
        gambling_paraphernalia: "No",
        mobile_phones: "Yes",
        jewelry_gold: "Yes",
        custom_declaration_details: [
          {
            type: "mobile_phones_info",
            details: [
              { mobile_phones_description: "Smartphone", mobile_phones_quantity: "2", mobile_phones_amount_in_usd: 900 },
              { mobile_phones_description: "Tablet", mobile_phones_quantity: 1, mobile_phones_amount_in_usd: "350.00" },
            ],
          },
          { type: "jewelry_gold_info", details: [{ jewelry_gold_description: "Gold necklace", jewelry_gold_quantity: "1", jewelry_gold_amount_in_usd: "1200" }] },
        ],
      }),
    );
    const customs = section(sections, "Customs - General Declaration");
    expect(customs.groups.map((g) => g.title)).toEqual([undefined, "Mobile Phones", "Jewelry and Gold"]);
    expect(rows(sections, "Customs - General Declaration")).toMatchObject({
      "Total Amount of Goods Purchased Abroad": "Yes",
      Amount: "1250.00",
      "Mobile Phones": "Yes",
      "Mobile Phones › (1) Description": "Smartphone",
      "Mobile Phones › (1) Quantity": "2",
      "Mobile Phones › (1) Amount (USD)": "900",
      "Mobile Phones › (2) Description": "Tablet",
      "Mobile Phones › (2) Amount (USD)": "350.00",
      "Jewelry and Gold › (1) Description": "Gold necklace",
    });
    expect(rows(sections, "Customs - General Declaration")).not.toHaveProperty("Mobile Phones › (3) Description");
    // The answers in the form's order, unanswered items left out.
    expect(customs.groups[0]!.rows.map((r) => r.label).slice(2)).toEqual(["Philippine Currency", "Foreign Currency", "Gambling Paraphernalia", "Mobile Phones", "Jewelry and Gold"]);
  });

  it("currency declaration: owner and recipient blocks, numbered instruments, bank date with a business recipient, courier and lading (ORDER-7)", () => {
    const currency = {
      ...AIR,
      travel_type: "arrival",
      philippine_currency: "Yes",
      foreign_currency: "No",
      instrument_information: [
        { id: "1", currency: "PHP", monetaryInstrument: "Cash", amount: "80000.00" },
        { id: "2", currency: "USD", monetaryInstrument: "Traveler's Check", amount: "12000.00" },
      ],
      owner_currency_declaration_first_name: "Maria",
      owner_currency_declaration_last_name: "Santos",
      owner_currency_declaration_country: "United States",
      owner_currency_declaration_pincode: "92101",
      recipient_currency_declaration_business_name: "Luzon Trading Corp.",
      recipient_currency_declaration_country: "Philippines",
      date_of_bsp: "2025-04-10",
      sources_of_currencies_salary: "Yes",
      purpose_of_transport_leisure: "No",
      physically_transferred: "No",
      no_of_days_philippines: "21",
      date_of_last_travel_philippines: "2023-12-01",
      name_of_courrier: "LBC Express",
      bill_of_landing: "BL123456789",
      date_of_bill_of_landing: "2025-04-12",
    };
    const sections = orderSections(order(currency));
    expect(titles(sections).at(-1)).toBe("For Customs - Currency Declaration");
    const declared = rows(sections, "For Customs - Currency Declaration");
    expect(declared).toMatchObject({
      "Owner › First Name": "Maria",
      "Owner › Postcode": "92101",
      "Recipient › Business Name": "Luzon Trading Corp.",
      "Currency and Monetary Instruments › (1) Currency": "PHP",
      "Currency and Monetary Instruments › (2) Monetary Instrument": "Traveler's Check",
      "Currency and Monetary Instruments › (2) Amount": "12000.00",
      "Details › Bank Authorization Date": "04/10/2025",
      "Details › Sources of Currencies": "Yes",
      "Details › Physically Transferred by a Person or Shipped by Courier": "Shipped by courier",
      "Details › Number of Days in the Philippines": "21",
      "Details › Last Travel Date to the Philippines": "12/01/2023",
      "Details › Courier Name": "LBC Express",
      "Details › Bill of Lading Number": "BL123456789",
      "Details › Bill of Lading Date": "04/12/2025",
    });
    expect(declared).not.toHaveProperty("Owner › Business Name");
    expect(declared).not.toHaveProperty("Recipient › First Name");

    // The bank authorization date needs a recipient business name.
    const person = rows(orderSections(order({ ...currency, recipient_currency_declaration_business_name: undefined, recipient_currency_declaration_first_name: "Jose" })), "For Customs - Currency Declaration");
    expect(person).not.toHaveProperty("Details › Bank Authorization Date");
    expect(person).toHaveProperty("Recipient › First Name", "Jose");
    // No yes currency answer: no declaration, even with instruments.
    expect(titles(orderSections(order({ ...currency, philippine_currency: "No" })))).not.toContain("For Customs - Currency Declaration");
    // A departure by sea shows it too (001 §2 limits only the general declaration to air).
    expect(titles(orderSections(order({ ...currency, ...SEA, travel_type: "departure" })))).toEqual([...COMMON, "For Customs - Currency Declaration"]);
  });
});

describe("order page formats (ORDER-4, ORDER-5, ORDER-8)", () => {
  it("MM/DD/YYYY, Standard Processing, OFW 0 → No, phone with country code, order id with the mail domain, photo link, purpose as words", () => {
    const sections = orderSections(order({ ...AIR, travel_type: "arrival" }));
    expect(rows(sections, "Order Details")).toEqual({ "Order ID": "2025041234", "Email Address": "maria.santos@example.com", "Processing Mode": "Standard Processing", "Signature Name": "Maria Santos" });
    const personal = rows(sections, "Personal Information");
    expect(personal).toMatchObject({
      "Order ID": "2025041234@etd-primary.example",
      "Overseas Filipino Worker": "No",
      "Birth Date": "07/04/1990",
      "Passport Issue Date": "01/15/2020",
      "Mobile Number": "+63 9171234567",
      "Profile Photo": "View Photo",
    });
    expect(section(sections, "Personal Information").groups[0]!.rows.find((r) => r.label === "Profile Photo")?.href).toBe("/uploads/photos/2025041234.jpg");
    // Whatever the intake sent, the link stays on this origin, under /uploads/.
    expect(photoHref("https://evil.example/uploads/photos/a.jpg")).toBe("/uploads/photos/a.jpg");
    expect(photoHref("//evil.example/x.jpg")).toBe("/uploads/x.jpg");
    expect(photoHref("javascript:alert(1)")).toBe("/uploads/alert(1)");
    expect(photoHref("/uploads/../../admin")).toBe("/uploads/admin");
    // ORDER-4/5: rows only when a value exists.
    for (const absent of ["Middle Name", "Suffix", "OFW Classification"]) expect(personal).not.toHaveProperty(absent);
    expect(rows(sections, "Address Information")).not.toHaveProperty("Address Line 2");
    expect(rows(sections, "Travel Information")).toHaveProperty("Purpose of Travel", "Returning Resident");

    const other = rows(orderSections(order({ ...AIR, travel_type: "arrival", landing_domain: "secondary", overseas_filipino_worker: 1, country_phone_code: undefined, country_code: "PH", signature_name: undefined })), "Personal Information");
    expect(other).toMatchObject({ "Order ID": "2025041234@etd-secondary.example", "Overseas Filipino Worker": "Yes", "Mobile Number": "9171234567" });
    expect(rows(orderSections(order({ signature_name: "" })), "Order Details")).not.toHaveProperty("Signature Name");
  });

  it("EST times: US Eastern wall time, daylight saving included, labelled EST (ORDER-8)", () => {
    expect(easternTime("2025-01-15T17:05:09.000Z")).toBe("01/15/2025 12:05:09 PM EST");
    expect(easternTime("2025-07-04T03:30:00.000Z")).toBe("07/03/2025 11:30:00 PM EST");
  });
});
