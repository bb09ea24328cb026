import { postgresAvailable } from "@etd/infra/test-database";
import type { PlaceOrderRequestBody } from "@etd/write";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, POLL, seriousViolations, startE2eApp, type E2eApp } from "./support/index.ts";

/*
 * The order page's read-only sections in a real browser against the real API (001 §2 "View
 * order", ORDER-4..9): one order of each shape placed through intake, opened at
 * /admin/view-order/{id}, its section headings and row labels read as a user (or a screen reader)
 * meets them: every <h2> in page order, every <dt> → <dd> under its section (and sub-heading).
 */

const ready = chromiumAvailable() && (await postgresAvailable());

/** Every shape-dependent field of the demo body, emptied (undefined is left out of the JSON), so a shape is exactly what a test sets. */
const CLEAR = Object.fromEntries(
  [
    "vessel_name", "cabin_number", "name_of_airline", "flight_number", "seaport_of_origin", "airport_of_origin", "special_flight_number",
    "country_of_transit", "airport_of_transit", "seaport_of_transit", "date_of_transit", "seat_number", "date_of_return",
    "seaport_of_destination", "seaport", "airport_of_arrival_departure", "airport_of_destination", "airport_details",
    "family_members_below_18", "family_members_18_and_above", "baggage_checked_in", "baggage_hand_carried", "first_time_visiting_philippines",
    "total_amount_of_goods", "amount_declaration", "philippine_currency", "foreign_currency", "gambling_paraphernalia", "cosmetics_skincare",
    "dangerous_drugs", "firearms_ammunitions", "alcohol_tobacco", "foodstuff_fruit", "mobile_phones", "cremains_human", "jewelry_gold",
    "other_goods", "custom_declaration_details", "instrument_information", "date_of_bsp", "sources_of_currencies_salary",
    "purpose_of_transport_leisure", "physically_transferred", "no_of_days_philippines", "date_of_last_travel_philippines",
    "name_of_courrier", "bill_of_landing", "date_of_bill_of_landing",
    ...["business_name", "first_name", "middle_name", "last_name", "suffix", "occupation", "country", "state_details", "municipality_details", "barangay", "street", "pincode"].flatMap(
      (field) => [`owner_currency_declaration_${field}`, `recipient_currency_declaration_${field}`],
    ),
  ].map((key) => [key, undefined]),
);

const NO_CURRENCY = { philippine_currency: "No", foreign_currency: "No" };

const AIR = {
  transportation_type: "air",
  name_of_airline: "Philippine Airlines",
  flight_number: "PR 103",
  airport_of_origin: "Los Angeles International",
  airport_of_destination: "Ninoy Aquino International",
  seat_number: "34K",
};

const SEA = { transportation_type: "sea", vessel_name: "Spectrum of the Seas", cabin_number: "9123", seaport_of_origin: "Hong Kong", seaport_of_destination: "Manila South Harbor" };

const ALL_NO = {
  total_amount_of_goods: "No",
  ...Object.fromEntries(
    ["philippine_currency", "foreign_currency", "gambling_paraphernalia", "cosmetics_skincare", "dangerous_drugs", "firearms_ammunitions", "alcohol_tobacco", "foodstuff_fruit", "mobile_phones", "cremains_human", "jewelry_gold", "other_goods"].map((item) => [item, "No"]),
  ),
};

const SHAPES = {
  arrivalByAir: { ...AIR, travel_type: "arrival", ...ALL_NO, family_members_below_18: 1 },
  arrivalBySea: { ...SEA, travel_type: "arrival", ...NO_CURRENCY },
  departureByAir: { ...AIR, travel_type: "departure", ...NO_CURRENCY, date_of_return: "2031-05-30" },
  departureBySea: { ...SEA, travel_type: "departure", ...NO_CURRENCY },
  customsEntries: {
    ...AIR,
    travel_type: "arrival",
    ...ALL_NO,
    mobile_phones: "Yes",
    custom_declaration_details: [
      {
        type: "mobile_phones_info",
        details: [
          { mobile_phones_description: "Smartphone", mobile_phones_quantity: 2, mobile_phones_amount_in_usd: "900.00" },
          { mobile_phones_description: "Tablet", mobile_phones_quantity: 1, mobile_phones_amount_in_usd: "350.00" },
        ],
      },
    ],
  },
  currencyDeclaration: {
    ...AIR,
    travel_type: "arrival",
    ...ALL_NO,
    philippine_currency: "Yes",
    instrument_information: [{ id: "1", currency: "PHP", monetaryInstrument: "Cash", amount: "80000.00" }],
    owner_currency_declaration_first_name: "Maria",
    owner_currency_declaration_last_name: "Santos",
    recipient_currency_declaration_business_name: "Luzon Trading Corp.",
    recipient_currency_declaration_country: "Philippines",
    date_of_bsp: "2031-04-10",
    sources_of_currencies_salary: "Yes",
    physically_transferred: "No",
    no_of_days_philippines: "21",
    name_of_courrier: "LBC Express",
    bill_of_landing: "BL123456789",
    date_of_bill_of_landing: "2031-04-12",
  },
} as const;

type Shape = keyof typeof SHAPES;

const RECORD_TITLES = [
  "Order Details",
  "Personal Information",
  "Address Information",
  "Travel Details",
  "Travel Information",
  "Destination",
  "Health Declaration",
  "Other Travel Details",
  "Customs - General Declaration",
  "For Customs - Currency Declaration",
];
const COMMON = RECORD_TITLES.slice(0, 7);

interface Seen {
  /** The record sections' headings, in page order. */
  readonly headings: string[];
  /** "Section › label" (or "Section › Group › label") → value, as the definition lists show them. */
  readonly rows: Record<string, string>;
}

/** What the page shows of the record: headings and label → value, read from the accessible structure. */
const read = (page: Page): Promise<Seen> =>
  page.evaluate((titles) => {
    const headings = [...document.querySelectorAll("main h2")].map((h) => h.textContent?.trim() ?? "").filter((t) => titles.includes(t));
    const rows: Record<string, string> = {};
    for (const section of document.querySelectorAll("main section[aria-labelledby]")) {
      const title = document.getElementById(section.getAttribute("aria-labelledby") ?? "")?.textContent?.trim() ?? "";
      if (!titles.includes(title)) continue;
      for (const dt of section.querySelectorAll("dt")) {
        const group = dt.closest(".record-group")?.querySelector("h3")?.textContent?.trim();
        rows[[title, group, dt.textContent?.trim()].filter(Boolean).join(" › ")] = dt.nextElementSibling?.textContent?.trim() ?? "";
      }
    }
    return { headings, rows };
  }, RECORD_TITLES);

describe.skipIf(!ready)("the order page's record sections per shape (001 §2, ORDER-4..9)", () => {
  let app: E2eApp;
  const ids = {} as Record<Shape, string>;

  beforeAll(async () => {
    app = await startE2eApp();
    for (const shape of Object.keys(SHAPES) as Shape[]) {
      [ids[shape]] = (await app.placeOrders(1, () => ({ ...CLEAR, ...SHAPES[shape] }) as Partial<PlaceOrderRequestBody>)) as [string];
    }
  });
  afterAll(async () => {
    await app?.close();
  });
  afterEach(async () => {
    await app.closePages();
  });

  const open = async (shape: Shape): Promise<{ page: Page; seen: Seen }> => {
    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, `/admin/view-order/${ids[shape]}`);
    await page.waitForFunction(() => [...document.querySelectorAll("main h2")].some((h) => h.textContent === "Health Declaration"), POLL);
    return { page, seen: await read(page) };
  };

  const labels = (seen: Seen, section: string) =>
    Object.keys(seen.rows)
      .filter((key) => key.startsWith(`${section} › `))
      .map((key) => key.slice(section.length + 3));

  it("arrival by air: Other Travel Details with counts defaulting to 0, the twelve customs answers, flights not vessels; no axe violations (ORDER-5, ORDER-6)", async () => {
    const { page, seen } = await open("arrivalByAir");
    expect(seen.headings).toEqual([...COMMON, "Other Travel Details", "Customs - General Declaration"]);
    expect(seen.rows).toMatchObject({
      "Order Details › Order ID": ids.arrivalByAir,
      "Order Details › Processing Mode": expect.stringMatching(/^(Standard|Priority) Processing$/),
      "Travel Details › Transportation Type": "Air",
      "Travel Details › Travel Type": "Arrival",
      "Travel Information › Airline": "Philippine Airlines",
      "Other Travel Details › Accompanying Family Members Below 18": "1",
      "Other Travel Details › Hand-carried Baggage": "0",
      "Customs - General Declaration › Other Goods": "No",
    });
    expect(seen.rows["Personal Information › Order ID"]).toMatch(new RegExp(`^${ids.arrivalByAir}@etd-(primary|secondary)\\.example$`));
    expect(seen.rows["Personal Information › Birth Date"]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(seen.rows["Personal Information › Mobile Number"]).toMatch(/^\+\d+ \d+$/);
    expect(labels(seen, "Customs - General Declaration")).toHaveLength(13);
    for (const absent of ["Vessel Name", "Voyage Number (Cabin Number)", "Seaport of Origin", "Seaport of Transit"]) expect(labels(seen, "Travel Information")).not.toContain(absent);
    expect(await page.$eval("main section[aria-labelledby] a[href^='/uploads/photos/']", (a) => a.textContent)).toBe("View Photo");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("arrival by sea: no Other Travel Details and no customs; vessel and cabin, no flights; no axe violations (ORDER-5)", async () => {
    const { page, seen } = await open("arrivalBySea");
    expect(seen.headings).toEqual(COMMON);
    expect(seen.rows).toMatchObject({ "Travel Information › Vessel Name": "Spectrum of the Seas", "Travel Information › Voyage Number (Cabin Number)": "9123", "Destination › Seaport of Destination": "Manila South Harbor" });
    for (const absent of ["Airline", "Flight Number", "Airport of Origin"]) expect(labels(seen, "Travel Information")).not.toContain(absent);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("departure by air: customs shows only the two currency answers; Return Date under Destination; no axe violations (ORDER-6)", async () => {
    const { page, seen } = await open("departureByAir");
    expect(seen.headings).toEqual([...COMMON, "Customs - General Declaration"]);
    expect(labels(seen, "Customs - General Declaration")).toEqual(["Philippine Currency", "Foreign Currency"]);
    expect(seen.rows).toMatchObject({ "Destination › Return Date": "05/30/2031", "Travel Details › Travel Type": "Departure" });
    expect(labels(seen, "Travel Information")).not.toContain("Departure Date from the Philippines");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("departure by sea: neither Other Travel Details nor customs; no axe violations (ORDER-5, ORDER-6)", async () => {
    const { page, seen } = await open("departureBySea");
    expect(seen.headings).toEqual(COMMON);
    expect(seen.rows).toMatchObject({ "Travel Details › Transportation Type": "Sea", "Travel Details › Travel Type": "Departure" });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("customs entries: the yes item's entries numbered (1), (2) with description, quantity and amount (ORDER-6)", async () => {
    const { page, seen } = await open("customsEntries");
    expect(seen.headings).toEqual([...COMMON, "Other Travel Details", "Customs - General Declaration"]);
    expect(seen.rows).toMatchObject({
      "Customs - General Declaration › Mobile Phones": "Yes",
      "Customs - General Declaration › Mobile Phones › (1) Description": "Smartphone",
      "Customs - General Declaration › Mobile Phones › (1) Quantity": "2",
      "Customs - General Declaration › Mobile Phones › (1) Amount (USD)": "900.00",
      "Customs - General Declaration › Mobile Phones › (2) Description": "Tablet",
    });
    expect(labels(seen, "Customs - General Declaration").filter((label) => label.includes("(3)"))).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("currency declaration: owner and recipient blocks, instruments, bank date with a business recipient, courier and bill of lading (ORDER-7)", async () => {
    const { page, seen } = await open("currencyDeclaration");
    expect(seen.headings).toEqual([...COMMON, "Other Travel Details", "Customs - General Declaration", "For Customs - Currency Declaration"]);
    const section = "For Customs - Currency Declaration";
    expect(seen.rows).toMatchObject({
      [`${section} › Owner › First Name`]: "Maria",
      [`${section} › Recipient › Business Name`]: "Luzon Trading Corp.",
      [`${section} › Currency and Monetary Instruments › (1) Currency`]: "PHP",
      [`${section} › Currency and Monetary Instruments › (1) Amount`]: "80000.00",
      [`${section} › Details › Bank Authorization Date`]: "04/10/2031",
      [`${section} › Details › Physically Transferred by a Person or Shipped by Courier`]: "Shipped by courier",
      [`${section} › Details › Courier Name`]: "LBC Express",
      [`${section} › Details › Bill of Lading Number`]: "BL123456789",
      [`${section} › Details › Bill of Lading Date`]: "04/12/2031",
    });
    expect(labels(seen, section)).not.toContain("Owner › Business Name");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("the spec's section order on the page, Download History's 'No record found', and Comment History's Show/Hide with the flags Y/N (ORDER-1, ORDER-8, ORDER-9)", async () => {
    const orderId = ids.departureBySea;
    const token = await app.login(app.admin);
    const remark = await app.api("POST", "/admin/add-new-remark", { orderId, remark: "Customer asked to correct the vessel name.", whatsapp: "Y", reportError: "Y" }, token);
    expect(remark.body.status).toBe(1);

    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, `/admin/view-order/${orderId}`);
    const comments = "main table[aria-label='Comment History'] tbody";
    await page.waitForSelector(`${comments} tr[data-remark-id]`);
    const SPEC_SECTIONS = ["Email History", "Upload Document", ...COMMON, "Download History", "Comment History"];
    const headings = await page.$$eval("main h2", (hs) => hs.map((h) => h.textContent?.trim() ?? ""));
    expect(headings.filter((h) => SPEC_SECTIONS.includes(h))).toEqual(SPEC_SECTIONS);

    expect(await page.$eval("main table[aria-label='Download History'] tbody", (body) => body.textContent?.trim())).toBe("No record found");

    const cells = await page.$eval(`${comments} tr[data-remark-id]`, (tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent?.trim()));
    expect(cells.slice(0, 2)).toEqual(["1", orderId]);
    expect(cells[2]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} [AP]M$/);
    expect(cells[3]).toBe(app.admin.name);
    const detailShown = () => page.$eval(`${comments} tr.comment-detail`, (tr) => (tr as HTMLElement).offsetParent !== null);
    expect(await detailShown()).toBe(false);

    await page.locator(`${comments} button::-p-text(Show)`).click();
    await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute("aria-expanded") === "true", POLL, `${comments} button`);
    expect(await detailShown()).toBe(true);
    const detail = await page.$eval(`${comments} tr.comment-detail`, (tr) => ({
      text: tr.querySelector("p")?.textContent,
      flags: [...tr.querySelectorAll("dt")].map((dt) => `${dt.textContent}=${dt.nextElementSibling?.textContent}`),
    }));
    expect(detail).toEqual({
      text: "Customer asked to correct the vessel name.",
      flags: ["Whatsapp=Y", "Telephone=N", "Refund=N", "Voided=N", "Chargeback=N", "ReportError=Y"],
    });
    expect(await page.$eval(`${comments} button`, (b) => b.textContent)).toBe("Hide");
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator(`${comments} button::-p-text(Hide)`).click();
    await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute("aria-expanded") === "false", POLL, `${comments} button`);
    expect(await detailShown()).toBe(false);
  });
});
