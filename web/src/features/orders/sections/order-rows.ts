import { BRANDS, type OrderDetails } from "@etd/contract";

/*
 * Which rows the order page's record sections show for which order (001 §2 "View order",
 * ORDER-4..7), as plain data: order → sections → groups → rows. The components only draw it, so
 * every "shown for arrival by air only" and "only when a value exists" rule is tested here
 * without a browser (test/order-rows.test.ts).
 */

export interface Row {
  readonly label: string;
  readonly value: string;
  /** The value is a link (the profile photo). */
  readonly href?: string;
}

/** Rows under an optional sub-heading: the customs entries of one item, the owner block, … */
export interface RowGroup {
  readonly title?: string;
  readonly rows: readonly Row[];
}

export interface RecordSection {
  /** Stable, for element ids. */
  readonly id: string;
  /** Exactly the spec's section name. */
  readonly title: string;
  readonly groups: readonly RowGroup[];
}

type Value = string | number | null | undefined;

const present = (value: Value): value is string | number => value !== undefined && value !== null && String(value).trim() !== "";

/** A row only when its value exists (ORDER-4/5). */
const row = (label: string, value: Value, format: (value: string) => string = (v) => v): Row[] =>
  present(value) ? [{ label, value: format(String(value).trim()) }] : [];

/** The counts of Other Travel Details default to 0 (001 §9). */
const countRow = (label: string, value: Value): Row => ({ label, value: present(value) ? String(value).trim() : "0" });

// --- formats ---------------------------------------------------------------------------------

/** MM/DD/YYYY (001 §9) from the application's YYYY-MM-DD (or an ISO timestamp); anything else as sent. */
export const usDate = (value: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(value);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : value;
};

/** `returning_resident` → "Returning Resident": the form's words joined by underscores, shown as words. */
export const words = (value: string): string =>
  value
    .split(/[_\s]+/)
    .filter((word) => word !== "")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");

/** OFW is 0 or 1; 0 is No (ORDER-5). */
export const ofw = (value: string): string => (value === "1" ? "Yes" : value === "0" ? "No" : value);

/** Mobile number with its country code: "+63 9171234567". A dialing code is digits; an ISO code (PH) is not one. */
export const phoneWithCode = (order: OrderDetails): string | undefined => {
  const number = order.phone_number?.trim();
  if (!number) return undefined;
  const code = [order.country_phone_code, order.country_code]
    .map((c) => (c === undefined || c === null ? "" : String(c).trim().replace(/^\+/, "")))
    .find((c) => /^\d{1,4}$/.test(c));
  return code ? `+${code} ${number}` : number;
};

/** The product mail-domain suffix of Personal Information's order id (001 §2): the order's brand's. */
export const orderIdWithMailDomain = (order: OrderDetails): string => `${order.order_id}@${(BRANDS[order.landing_domain] ?? BRANDS.primary).mailDomain}`;

/**
 * Applicant photos come from the public site's uploads path (001 §7, ORDER-14). The public site is
 * served by this same origin (/track-order…), so the photo is linked under `/uploads/` here
 * whatever the intake sent: a full URL keeps only its path, so a value from outside can never
 * make staff click through to another host.
 */
export const photoHref = (photo: string): string => {
  const pathPart = /^[a-z][a-z0-9+.-]*:/i.test(photo) || photo.startsWith("//") ? photo.replace(/^[a-z][a-z0-9+.-]*:/i, "").replace(/^\/\/[^/]*/, "") : photo;
  const segments = pathPart.split("/").filter((segment) => segment !== "" && segment !== "." && segment !== "..");
  return `/uploads/${segments.slice(segments[0] === "uploads" ? 1 : 0).map(encodeURIComponent).join("/")}`;
};

const yes = (value: Value) => present(value) && String(value).trim().toLowerCase() === "yes";

// --- the shape of an order -------------------------------------------------------------------

export interface OrderShape {
  readonly air: boolean;
  readonly sea: boolean;
  readonly arrival: boolean;
  readonly departure: boolean;
}

export const shapeOf = (order: OrderDetails): OrderShape => {
  const transport = order.transportation_type?.toLowerCase();
  const travel = order.travel_type?.toLowerCase();
  return { air: transport === "air", sea: transport === "sea", arrival: travel === "arrival", departure: travel === "departure" };
};

// --- customs ---------------------------------------------------------------------------------

/** The twelve customs items (001 §3) in the form's order, with the words staff read. */
export const CUSTOMS_ITEM_LABELS = [
  ["philippine_currency", "Philippine Currency"],
  ["foreign_currency", "Foreign Currency"],
  ["gambling_paraphernalia", "Gambling Paraphernalia"],
  ["cosmetics_skincare", "Cosmetics and Skin Care Products"],
  ["dangerous_drugs", "Dangerous Drugs"],
  ["firearms_ammunitions", "Firearms and Ammunitions"],
  ["alcohol_tobacco", "Alcohol and Tobacco"],
  ["foodstuff_fruit", "Foodstuff and Fruits"],
  ["mobile_phones", "Mobile Phones"],
  ["cremains_human", "Human Cremains"],
  ["jewelry_gold", "Jewelry and Gold"],
  ["other_goods", "Other Goods"],
] as const;

type CustomsItem = (typeof CUSTOMS_ITEM_LABELS)[number][0];

/** The numbered entries (n) behind one yes item: description, quantity and amount (ORDER-6). */
const customsEntries = (order: OrderDetails, item: CustomsItem): Row[] => {
  const entry = order.custom_declaration_details?.find((e) => e.type === `${item}_info`);
  return (entry?.details ?? []).flatMap((detail, index) => {
    const n = `(${index + 1})`;
    return [
      ...row(`${n} Description`, detail[`${item}_description`]),
      ...row(`${n} Quantity`, detail[`${item}_quantity`]),
      ...row(`${n} Amount (USD)`, detail[`${item}_amount_in_usd`]),
    ];
  });
};

const customsSection = (order: OrderDetails, shape: OrderShape): RecordSection => {
  const answers = (items: readonly (typeof CUSTOMS_ITEM_LABELS)[number][]) =>
    items.flatMap(([item, label]) => row(label, order[item]));
  if (shape.departure) {
    // 001 §2: for departure only the two currency answers are shown.
    return { id: "customs", title: "Customs - General Declaration", groups: [{ rows: answers(CUSTOMS_ITEM_LABELS.slice(0, 2)) }] };
  }
  const entryGroups = CUSTOMS_ITEM_LABELS.filter(([item]) => yes(order[item]))
    .map(([item, label]): RowGroup => ({ title: label, rows: customsEntries(order, item) }))
    .filter((group) => group.rows.length > 0);
  return {
    id: "customs",
    title: "Customs - General Declaration",
    groups: [
      {
        rows: [
          ...row("Total Amount of Goods Purchased Abroad", order.total_amount_of_goods),
          ...row("Amount", order.amount_declaration),
          ...answers(CUSTOMS_ITEM_LABELS),
        ],
      },
      ...entryGroups,
    ],
  };
};

// --- currency declaration --------------------------------------------------------------------

const PARTY_FIELDS = [
  ["business_name", "Business Name"],
  ["first_name", "First Name"],
  ["middle_name", "Middle Name"],
  ["last_name", "Last Name"],
  ["suffix", "Suffix"],
  ["occupation", "Occupation"],
  ["country", "Country"],
  ["state_details", "State/Province"],
  ["municipality_details", "Municipality/City"],
  ["barangay", "Barangay"],
  ["street", "Street"],
  ["pincode", "Postcode"],
] as const;

const party = (order: OrderDetails, prefix: "owner_currency_declaration_" | "recipient_currency_declaration_"): Row[] =>
  PARTY_FIELDS.flatMap(([field, label]) => row(label, order[`${prefix}${field}`]));

/** ORDER-7: only when either currency answer is yes and an instrument list exists. */
export const hasCurrencyDeclaration = (order: OrderDetails): boolean =>
  (yes(order.philippine_currency) || yes(order.foreign_currency)) && (order.instrument_information?.length ?? 0) > 0;

const transferMode = (value: string): string =>
  value.toLowerCase() === "yes" ? "Physically transferred by a person" : value.toLowerCase() === "no" ? "Shipped by courier" : value;

const currencySection = (order: OrderDetails): RecordSection => {
  const instruments = (order.instrument_information ?? []).flatMap((instrument, index) => {
    const n = `(${index + 1})`;
    return [
      ...row(`${n} Currency`, instrument.currency),
      ...row(`${n} Monetary Instrument`, instrument.monetaryInstrument),
      ...row(`${n} Amount`, instrument.amount),
    ];
  });
  const groups: RowGroup[] = [
    { title: "Owner", rows: party(order, "owner_currency_declaration_") },
    { title: "Recipient", rows: party(order, "recipient_currency_declaration_") },
    { title: "Currency and Monetary Instruments", rows: instruments },
    {
      title: "Details",
      rows: [
        // The BSP authorisation matters for a business recipient only (001 §2, §9).
        ...(present(order.recipient_currency_declaration_business_name) ? row("Bank Authorization Date", order.date_of_bsp, usDate) : []),
        ...row("Sources of Currencies", order.sources_of_currencies_salary),
        ...row("Purpose of Transport", order.purpose_of_transport_leisure),
        ...row("Physically Transferred by a Person or Shipped by Courier", order.physically_transferred, transferMode),
        ...row("Number of Days in the Philippines", order.no_of_days_philippines),
        ...row("Last Travel Date to the Philippines", order.date_of_last_travel_philippines, usDate),
        ...row("Courier Name", order.name_of_courrier),
        ...row("Bill of Lading Number", order.bill_of_landing),
        ...row("Bill of Lading Date", order.date_of_bill_of_landing, usDate),
      ],
    },
  ];
  return { id: "currency", title: "For Customs - Currency Declaration", groups: groups.filter((g) => g.rows.length > 0) };
};

// --- every section ---------------------------------------------------------------------------

const single = (id: string, title: string, rows: Row[]): RecordSection => ({ id, title, groups: [{ rows }] });

/**
 * The record sections of one order, in the spec's order, from Order Details to the currency
 * declaration (Email History, Upload Document and the histories are the page's own).
 */
export const orderSections = (order: OrderDetails): RecordSection[] => {
  const shape = shapeOf(order);
  const photo = order.applicant_photo?.trim();
  const hotelIsOther = order.hotel_name?.trim().toLowerCase() === "other";

  const sections: RecordSection[] = [
    single("order-details", "Order Details", [
      ...row("Order ID", order.order_id),
      ...row("Email Address", order.email),
      // The API sends the label ("Standard Processing" for the site's Regular Processing, ORDER-4).
      ...row("Processing Mode", order.processing_mode),
      ...row("Signature Name", order.signature_name),
    ]),
    single("personal", "Personal Information", [
      ...row("Order ID", orderIdWithMailDomain(order)),
      ...(photo ? [{ label: "Profile Photo", value: "View Photo", href: photoHref(photo) }] : []),
      ...row("Passport Type", order.passport_type),
      ...row("Email", order.email),
      ...row("Re-entered Email", order.confirm_email),
      ...row("Overseas Filipino Worker", order.overseas_filipino_worker, ofw),
      ...row("OFW Classification", order.ofw_classification),
      ...row("First Name", order.first_name),
      ...row("Middle Name", order.middle_name),
      ...row("Last Name", order.last_name),
      ...row("Suffix", order.suffix),
      ...row("Sex", order.sex),
      ...row("Birth Date", order.date_of_birth, usDate),
      ...row("Mobile Number", phoneWithCode(order)),
      ...row("Citizenship", order.citizenship),
      ...row("Country of Birth", order.country_of_birth),
      ...row("Passport Number", order.passport_number),
      ...row("Passport Issuing Country", order.passport_issued_country),
      ...row("Passport Issue Date", order.date_of_issued, usDate),
      ...row("Occupation", order.occupation),
    ]),
    single("address", "Address Information", [
      ...row("Permanent Country of Residence", order.permanent_country_of_residence),
      ...row("State/Province", order.permanent_state_details),
      ...row("Municipality/City", order.permanent_municipality_details),
      ...row("Barangay", order.permanent_barangay),
      ...row("Address", order.address),
      ...row("Address Line 2", order.address_line_2),
    ]),
    single("travel-details", "Travel Details", [
      ...row("Transportation Type", order.transportation_type, words),
      ...row("Travel Type", order.travel_type, words),
      ...row("Citizenship", order.citizenship),
    ]),
    single("travel-information", "Travel Information", [
      ...row("Purpose of Travel", order.purpose_of_visit, words),
      ...row("Traveller Type", order.traveller_type),
      ...row("Vessel Name", order.vessel_name),
      ...row("Voyage Number (Cabin Number)", order.cabin_number),
      ...row("Airline", order.name_of_airline),
      ...row("Flight Number", order.flight_number),
      ...row("Country of Origin", order.country_of_origin),
      ...row("Seaport of Origin", order.seaport_of_origin),
      ...row("Airport of Origin", order.airport_of_origin),
      ...row("Departure Date to the Philippines", order.date_of_departure, usDate),
      // The arrival's planned date of leaving again; a departure shows it as Return Date under Destination.
      ...(shape.arrival ? row("Departure Date from the Philippines", order.date_of_return, usDate) : []),
      ...row("Special Flight Number", order.special_flight_number),
      ...row("Transit Country", order.country_of_transit),
      ...(shape.sea ? [] : row("Airport of Transit", order.airport_of_transit)),
      ...(shape.air ? [] : row("Seaport of Transit", order.seaport_of_transit)),
      ...row("Transit Date", order.date_of_transit, usDate),
      ...row("Seat or Bed Number", order.seat_number),
    ]),
    single("destination", "Destination", [
      // The same three places, in the order 001 §2 gives for each direction.
      ...(shape.departure
        ? [
            ...row("Country of Destination", order.country_of_destination),
            ...row("Seaport of Destination", order.seaport_of_destination ?? order.seaport),
            ...row("Airport of Destination", order.airport_of_destination ?? order.airport_of_arrival_departure),
          ]
        : [
            ...row("Seaport of Destination", order.seaport_of_destination ?? order.seaport),
            ...row("Airport of Destination", order.airport_of_destination ?? order.airport_of_arrival_departure),
            ...row("Country of Destination", order.country_of_destination),
          ]),
      ...row("Arrival to Destination Date", order.date_of_travel, usDate),
      ...(shape.departure ? row("Return Date", order.date_of_return, usDate) : []),
      ...row("Destination Type", order.destination_type, words),
      ...row("Hotel or Resort", hotelIsOther ? "Other" : order.hotel_name),
      ...(hotelIsOther ? row("Other Hotel Name", order.hotel_other) : []),
      ...row("Residence Contact Information", order.contact_information),
      ...row("State/Province", order.state_details),
      ...row("Municipality/City", order.municipality_details),
      ...row("House Number", order.house_no),
      ...row("Airport", order.airport_details),
      ...row("Destination Address", order.destination_address),
    ]),
    single("health", "Health Declaration", [
      ...row("Countries Visited in the Last 30 Days", order.country_visited),
      ...row("Exposure to Infectious Disease in the Past 30 Days", order.infectious_disease),
      ...row("Sick in the Past 30 Days", order.sick_in_past_thirty_days),
      ...row("Symptoms", order.symtoms),
    ]),
  ];

  if (shape.arrival && shape.air) {
    sections.push(
      single("other-travel", "Other Travel Details", [
        countRow("Accompanying Family Members Below 18", order.family_members_below_18),
        countRow("Accompanying Family Members 18 and Above", order.family_members_18_and_above),
        countRow("Checked-in Baggage", order.baggage_checked_in),
        countRow("Hand-carried Baggage", order.baggage_hand_carried),
        ...row("First Time Visiting the Philippines", order.first_time_visiting_philippines),
      ]),
    );
  }
  if (!shape.sea) sections.push(customsSection(order, shape));
  if (hasCurrencyDeclaration(order)) sections.push(currencySection(order));
  return sections;
};
