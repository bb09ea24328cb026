import { CUSTOMS_ITEMS, type CustomsItem } from "@etd/events";
import {
  BUSINESSES,
  COURIERS,
  CRUISE_SHIPS,
  CUSTOMS_GOODS,
  CUSTOMS_YES_RATE,
  FILIPINO_NAMES,
  FILIPINO_OCCUPATIONS,
  FOREIGN_COUNTRIES,
  FOREIGN_OCCUPATIONS,
  MONETARY_INSTRUMENTS,
  OFW_COUNTRIES,
  OTHER_HOTELS,
  PHILIPPINE_AREAS,
  PURPOSES,
  type Airline,
  type ForeignCountry,
  type NamePool,
  type PhilippineArea,
} from "./demo-data.ts";
import type { PlaceOrderRequestBody } from "@etd/write";
import { seededRandom, type SeededRandom } from "./seeded-random.ts";

/*
 * Demo orders: N place-order request bodies in the same flat wire format the customer-facing
 * site sends, so demo data goes through exactly the decoding real intake does (and exercises
 * its normalisation: "Regular Processing", "yes", counts as strings, +08:00 timestamps).
 *
 * Deterministic: the same seed and `now` give the same bodies, byte for byte. Order ids run
 * from 100001 upwards and rise with created_at, as a real site's ids do. created_at is spread
 * over the `spanDays` (default 90) days before `now`; about one order in ten is due 1-120 days
 * after it was made, so the future-orders view has months to show.
 *
 * E-mail addresses use the reserved example.com/.org/.net domains: demo mail must never reach
 * a real inbox.
 */

export interface DemoOrderOptions {
  readonly seed: number;
  readonly count: number;
  /** The demo's "today": orders are created in the `spanDays` days up to it. */
  readonly now: Date;
  /** How many days before `now` the first order was created (default 90). */
  readonly spanDays?: number;
}

export const FIRST_DEMO_ORDER_ID = 100_001;

const DAY_MS = 86_400_000;
const SPAN_DAYS = 90;

export function generateDemoOrders({ seed, count, now, spanDays = SPAN_DAYS }: DemoOrderOptions): PlaceOrderRequestBody[] {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`count must be a whole number of 0 or more, got ${String(count)}`);
  }
  if (Number.isNaN(now.getTime())) throw new RangeError("now must be a valid date");
  if (!(spanDays > 0)) throw new RangeError(`spanDays must be more than 0, got ${String(spanDays)}`);
  const random = seededRandom(seed);
  const end = now.getTime();
  const start = end - spanDays * DAY_MS;
  return Array.from({ length: count }, (_, i) => {
    // One slot per order, jittered within it: evenly spread, and ids rise with time.
    const at = start + ((i + random.next()) / count) * (end - start);
    const createdMs = Math.floor(at / 1000) * 1000;
    return demoOrder(random, String(FIRST_DEMO_ORDER_ID + i), createdMs);
  });
}

type Body = { -readonly [K in keyof PlaceOrderRequestBody]: PlaceOrderRequestBody[K] };
type Part = Partial<Body>;

// ---------------------------------------------------------------------------------------------
// Dates

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const addDays = (day: string, days: number): string => dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** The site's own clock is in Manila: some bodies carry that offset instead of Z. */
const manilaTimestamp = (ms: number): string =>
  `${new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`;

// ---------------------------------------------------------------------------------------------
// The wire's variety: what sites really send, which decoding normalises

const answer = (random: SeededRandom, yes: boolean): NonNullable<Body["country_visited"]> =>
  random.weighted<NonNullable<Body["country_visited"]>>([
    [yes ? "Yes" : "No", 90],
    [yes ? "yes" : "no", 8],
    [yes ? 1 : 0, 2],
  ]);

const countValue = (random: SeededRandom, n: number): number | string =>
  random.chance(0.2) ? String(n) : n;

const money = (random: SeededRandom, usd: number): number | string =>
  random.chance(0.15) ? usd : usd.toFixed(2);

// ---------------------------------------------------------------------------------------------
// The traveller

interface Place {
  readonly country: string;
  readonly state: string;
  readonly municipality: string;
  readonly barangay?: string;
  readonly street: string;
  readonly line2?: string;
  readonly postcode: string;
}

interface Traveller {
  readonly filipino: boolean;
  readonly ofw: boolean;
  readonly sex: "Male" | "Female";
  readonly first: string;
  readonly middle?: string;
  readonly last: string;
  readonly suffix?: string;
  readonly occupation: string;
  /** The country they hold a passport of. */
  readonly citizenship: { readonly name: string; readonly iso: string };
  /** Where they live: the Philippines, or a foreign country. */
  readonly home: Place;
  readonly homeArea?: PhilippineArea;
  readonly homeCountry?: ForeignCountry;
  readonly phone: { readonly iso: string; readonly code: string; readonly number: string };
}

const PH_STREETS = [
  "Rizal", "Mabini", "Bonifacio", "Luna", "Del Pilar", "Quezon", "Burgos", "Aguinaldo", "Magsaysay", "Roxas",
];
const OFW_OCCUPATIONS = FILIPINO_OCCUPATIONS.slice(0, 11);
const MOBILE_PREFIXES = ["17", "18", "19", "20", "27", "56", "66", "77", "95", "98"];

const countryNamed = (name: string): ForeignCountry =>
  FOREIGN_COUNTRIES.find((c) => c.name === name) ?? (FOREIGN_COUNTRIES[0] as ForeignCountry);

const pickArea = (random: SeededRandom, areas: readonly PhilippineArea[] = PHILIPPINE_AREAS) =>
  random.weighted(areas.map((area) => [area, area.weight] as const));

const philippineLine2 = (random: SeededRandom): string =>
  random.chance(0.5)
    ? `Unit ${String(random.int(1, 30))}${random.pick(["A", "B", "C"])}`
    : `Block ${String(random.int(1, 20))} Lot ${String(random.int(1, 40))}`;

const philippinePlace = (random: SeededRandom, area: PhilippineArea): Place => {
  const municipality = random.pick(area.municipalities);
  return {
    country: "Philippines",
    state: area.province,
    municipality: municipality.name,
    barangay: random.pick(municipality.barangays),
    street: `${String(random.int(1, 999))} ${random.pick(PH_STREETS)} Street`,
    ...(random.chance(0.2) ? { line2: philippineLine2(random) } : {}),
    postcode: String(random.int(1000, 9999)),
  };
};

const foreignPlace = (random: SeededRandom, country: ForeignCountry): Place => {
  const region = random.pick(country.regions);
  return {
    country: country.name,
    state: region.state,
    municipality: random.pick(region.cities),
    street: `${String(random.int(1, 9999))} ${random.pick(country.streets)}`,
    ...(random.chance(0.15) ? { line2: `Apt ${String(random.int(1, 40))}` } : {}),
    postcode: String(random.int(1, 9)) + random.digits(country.postcodeDigits - 1),
  };
};

const phMobile = (random: SeededRandom) => ({
  iso: "PH",
  code: "63",
  number: `9${random.pick(MOBILE_PREFIXES)}${random.digits(7)}`,
});

const foreignPhone = (random: SeededRandom, country: ForeignCountry) => ({
  iso: country.iso,
  code: country.phoneCode,
  number: String(random.int(2, 9)) + random.digits(country.phoneDigits - 1),
});

const nameFrom = (random: SeededRandom, pool: NamePool, sex: "Male" | "Female") =>
  random.pick(sex === "Male" ? pool.male : pool.female);

function makeTraveller(random: SeededRandom): Traveller {
  const kind = random.weighted([
    ["filipino-home", 45],
    ["filipino-abroad", 20],
    ["foreign", 35],
  ] as const);
  const sex = random.chance(0.5) ? "Male" : "Female";

  if (kind === "foreign") {
    const country = random.pick(FOREIGN_COUNTRIES);
    return {
      filipino: false,
      ofw: false,
      sex,
      first: nameFrom(random, country.names, sex),
      last: random.pick(country.names.last),
      occupation: random.pick(FOREIGN_OCCUPATIONS),
      citizenship: { name: country.name, iso: country.iso },
      home: foreignPlace(random, country),
      homeCountry: country,
      phone: foreignPhone(random, country),
    };
  }

  // Filipinos carry the mother's maiden name as a middle name; most forms have one.
  const [last, maiden] = random.sample(FILIPINO_NAMES.last, 2) as [string, string];
  const names = {
    first: nameFrom(random, FILIPINO_NAMES, sex),
    ...(random.chance(0.85) ? { middle: maiden } : {}),
    last,
    ...(sex === "Male" && random.chance(0.06) ? { suffix: random.pick(["Jr.", "III", "Sr."]) } : {}),
  };
  const citizenship = { name: "Philippines", iso: "PH" };

  if (kind === "filipino-home") {
    const area = pickArea(random);
    return {
      filipino: true,
      ofw: false,
      sex,
      ...names,
      occupation: random.pick(FILIPINO_OCCUPATIONS),
      citizenship,
      home: philippinePlace(random, area),
      homeArea: area,
      phone: phMobile(random),
    };
  }

  const country = countryNamed(random.pick(OFW_COUNTRIES));
  const ofw = random.chance(0.7);
  return {
    filipino: true,
    ofw,
    sex,
    ...names,
    occupation: random.pick(ofw ? OFW_OCCUPATIONS : FILIPINO_OCCUPATIONS),
    citizenship,
    home: foreignPlace(random, country),
    homeCountry: country,
    phone: random.chance(0.3) ? phMobile(random) : foreignPhone(random, country),
  };
}

const emailOf = (random: SeededRandom, t: Traveller): string => {
  const token = (s: string) =>
    s
      .normalize("NFD")
      .replace(/[^A-Za-z0-9]/g, "")
      .toLowerCase();
  const local = [token(t.first), token(t.last)].join(random.pick([".", "_", ""]));
  const suffix = random.chance(0.5) ? String(random.int(1, 99)) : "";
  return `${local}${suffix}@${random.pick(["example.com", "example.org", "example.net"])}`;
};

/** The identity part always has what a request requires. */
type IdentityPart = Part & Pick<Body, "email" | "first_name" | "last_name">;

function identity(random: SeededRandom, orderId: string, t: Traveller, createdDay: string): IdentityPart {
  const age = random.chance(0.05) ? random.int(3, 17) : random.int(18, 75);
  const birth = addDays(createdDay, -(age * 365 + random.int(0, 364)));
  const email = emailOf(random, t);
  const passportCountry = t.filipino ? undefined : countryNamed(t.citizenship.name);
  const passportNumber = passportCountry
    ? passportCountry.passport.prefix +
      String(random.int(1, 9)) +
      random.digits(passportCountry.passport.digits - 1)
    : `P${random.digits(7)}${random.pick([..."ABCDEFGHJKLMNPRSTUVWXYZ"])}`;
  const occupation = age < 18 ? "Student" : t.occupation;
  return {
    email,
    ...(random.chance(0.95) ? { confirm_email: email } : {}),
    signature_name: [t.first, t.middle ? `${t.middle.charAt(0)}.` : undefined, t.last, t.suffix]
      .filter((part) => part !== undefined)
      .join(" "),
    applicant_photo: `photos/${orderId}.jpg`,
    passport_type: random.weighted([
      ["Regular", 95],
      ["Official", 3],
      ["Diplomatic", 2],
    ]),
    ...(t.filipino || random.chance(0.5) ? { overseas_filipino_worker: t.ofw ? 1 : 0 } : {}),
    ...(t.ofw ? { ofw_classification: occupation === "Seafarer" ? "Sea-based" : "Land-based" } : {}),
    first_name: t.first,
    ...(t.middle ? { middle_name: t.middle } : {}),
    last_name: t.last,
    ...(t.suffix ? { suffix: t.suffix } : {}),
    sex: t.sex,
    date_of_birth: birth,
    phone_number: t.phone.number,
    country_code: t.phone.iso,
    country_phone_code: random.chance(0.1) ? Number(t.phone.code) : t.phone.code,
    citizenship_id: t.citizenship.iso,
    citizenship: t.citizenship.name,
    citizenshipCountry: t.citizenship.name,
    country_of_birth:
      t.filipino || random.chance(0.9) ? t.citizenship.name : random.pick(FOREIGN_COUNTRIES).name,
    passport_number: passportNumber,
    passport_issued_country: t.citizenship.name,
    date_of_issued: addDays(createdDay, -random.int(30, 9 * 365)),
    occupation,
    permanent_country_of_residence: t.home.country,
    permanent_state_details: t.home.state,
    permanent_municipality_details: t.home.municipality,
    ...(t.home.barangay ? { permanent_barangay: t.home.barangay } : {}),
    address: t.home.street,
    ...(t.home.line2 ? { address_line_2: t.home.line2 } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The trip

interface Trip {
  readonly air: boolean;
  readonly arrival: boolean;
  /** The other end of the trip: where the traveller comes from or goes to. */
  readonly partner: ForeignCountry;
  /** The Philippine end: where they land, stay, or leave from. */
  readonly area: PhilippineArea;
  readonly travelDay: string;
}

const SEA_COUNTRIES = FOREIGN_COUNTRIES.filter((c) => c.seaports.length > 0);
const SEA_AREAS = PHILIPPINE_AREAS.filter((a) => a.seaport !== undefined);

function makeTrip(random: SeededRandom, t: Traveller, processingDay: string): Trip {
  const air = random.chance(0.85);
  const arrival = random.chance(0.7);
  const usual = t.homeCountry ?? random.pick(FOREIGN_COUNTRIES);
  const partner = air || usual.seaports.length > 0 ? usual : random.pick(SEA_COUNTRIES);
  const home = t.homeArea;
  const area =
    home !== undefined && (air || home.seaport !== undefined)
      ? home
      : pickArea(random, air ? PHILIPPINE_AREAS : SEA_AREAS);
  // eTravel is filed up to three days before travel.
  return { air, arrival, partner, area, travelDay: addDays(processingDay, random.int(0, 3)) };
}

const flightOf = (random: SeededRandom, airline: Airline) => `${airline.code} ${String(random.int(1, 999))}`;

function travel(random: SeededRandom, t: Traveller, trip: Trip): Part {
  const { partner, area, travelDay } = trip;
  const purpose = t.filipino && t.homeArea === undefined && trip.arrival && random.chance(0.5)
    ? "returning_resident"
    : random.weighted(PURPOSES);
  const common: Part = {
    transportation_type: trip.air ? "air" : random.chance(0.1) ? "Sea" : "sea",
    travel_type: trip.arrival ? "arrival" : "departure",
    purpose_of_visit: purpose,
    traveller_type: t.ofw ? "Overseas Filipino Worker" : t.filipino ? "Filipino Citizen" : "Foreign Citizen",
  };
  const arriveDay = trip.air && random.chance(0.3) ? addDays(travelDay, 1) : travelDay;
  const returnDay = random.chance(0.65) ? { date_of_return: addDays(travelDay, random.int(3, 60)) } : {};

  if (trip.air) {
    const airline = random.pick(partner.airlines);
    const hub = airline.hub !== undefined && airline.hub.country !== partner.name ? airline.hub : undefined;
    const foreignAirport = random.pick(partner.airports);
    return {
      ...common,
      name_of_airline: airline.name,
      flight_number: flightOf(random, airline),
      ...(random.chance(0.02)
        ? { special_flight_number: `${airline.code} ${String(random.int(8000, 8999))}` }
        : {}),
      country_of_origin: trip.arrival ? partner.name : "Philippines",
      airport_of_origin: trip.arrival ? foreignAirport : area.airport,
      date_of_departure: travelDay,
      ...returnDay,
      ...(hub
        ? { country_of_transit: hub.country, airport_of_transit: hub.airport, date_of_transit: travelDay }
        : {}),
      seat_number: `${String(random.int(1, 60))}${random.pick([..."ABCDEFGHJK"])}`,
      country_of_destination: trip.arrival ? "Philippines" : partner.name,
      airport_of_arrival_departure: area.airport,
      airport_of_destination: trip.arrival ? area.airport : foreignAirport,
      date_of_travel: arriveDay,
    };
  }

  const foreignPort = random.pick(partner.seaports);
  const philippinePort = area.seaport ?? "Manila South Harbor";
  const transit = random.chance(0.15) ? random.pick(SEA_COUNTRIES.filter((c) => c !== partner)) : undefined;
  return {
    ...common,
    vessel_name: random.pick(CRUISE_SHIPS),
    cabin_number: `${String(random.int(2, 14))}${random.digits(3)}`,
    country_of_origin: trip.arrival ? partner.name : "Philippines",
    seaport_of_origin: trip.arrival ? foreignPort : philippinePort,
    // A cruise leaves its last foreign port a day or more before it calls here.
    date_of_departure: trip.arrival ? addDays(travelDay, -random.int(1, 3)) : travelDay,
    ...returnDay,
    ...(transit
      ? {
          country_of_transit: transit.name,
          seaport_of_transit: random.pick(transit.seaports),
          date_of_transit: travelDay,
        }
      : {}),
    country_of_destination: trip.arrival ? "Philippines" : partner.name,
    seaport: philippinePort,
    seaport_of_destination: trip.arrival ? philippinePort : foreignPort,
    date_of_travel: trip.arrival ? travelDay : addDays(travelDay, random.int(1, 3)),
  };
}

const HOTEL_CHAINS = ["Hilton", "Marriott", "Holiday Inn", "Ibis", "Novotel"];

function destination(random: SeededRandom, t: Traveller, trip: Trip): Part {
  if (!trip.arrival) {
    // Leaving: where they stay abroad, usually home.
    const abroad = t.homeCountry === trip.partner ? t.home : foreignPlace(random, trip.partner);
    if (random.chance(0.35)) {
      return {
        destination_type: "hotel",
        hotel_details: abroad.municipality,
        hotel_name: `${random.pick(HOTEL_CHAINS)} ${abroad.municipality}`,
      };
    }
    return {
      destination_type: "residence",
      state_details: abroad.state,
      municipality_details: abroad.municipality,
      house_no: abroad.street.split(" ")[0] ?? "1",
      destination_address: `${abroad.street}, ${abroad.municipality}, ${abroad.country}`,
    };
  }
  const hotelRate = t.filipino ? (t.homeArea ? 0.1 : 0.3) : 0.8;
  if (random.chance(hotelRate)) {
    const other = random.chance(0.15);
    return {
      destination_type: "hotel",
      hotel_details: trip.area.label,
      hotel_name: other ? "other" : random.pick(trip.area.hotels),
      ...(other ? { hotel_other: random.pick(OTHER_HOTELS) } : {}),
    };
  }
  const stay = t.homeArea === trip.area ? t.home : philippinePlace(random, trip.area);
  return {
    destination_type: "residence",
    contact_information: `+63 ${phMobile(random).number}`,
    state_details: stay.state,
    municipality_details: stay.municipality,
    house_no: stay.street.split(" ")[0] ?? "1",
    ...(trip.air ? { airport_details: trip.area.airport } : {}),
    destination_address: [stay.street, stay.barangay && `Barangay ${stay.barangay}`, stay.municipality]
      .filter(Boolean)
      .join(", "),
  };
}

function health(random: SeededRandom): Part {
  return {
    country_visited: answer(random, random.chance(0.08)),
    infectious_disease: answer(random, random.chance(0.01)),
    sick_in_past_thirty_days: answer(random, random.chance(0.02)),
    symtoms: answer(random, random.chance(0.01)),
  };
}

function arrivalByAir(random: SeededRandom, t: Traveller): Part {
  const some = (p: number, max: number) => (random.chance(p) ? random.int(1, max) : 0);
  return {
    family_members_below_18: countValue(random, some(0.3, 3)),
    family_members_18_and_above: countValue(random, some(0.4, 3)),
    baggage_checked_in: countValue(random, random.int(0, 3)),
    baggage_hand_carried: countValue(random, random.int(1, 2)),
    first_time_visiting_philippines: answer(random, !t.filipino && random.chance(0.35)),
  };
}

// ---------------------------------------------------------------------------------------------
// Customs and currency

type CustomsEntry = NonNullable<Body["custom_declaration_details"]>[number];

function customsEntry(random: SeededRandom, item: CustomsItem): CustomsEntry | undefined {
  const goods = CUSTOMS_GOODS[item];
  if (goods === undefined) return undefined;
  const details = random.sample(goods, random.int(1, 3)).map(([description, usd]) => ({
    [`${item}_description`]: description,
    [`${item}_quantity`]: countValue(random, random.int(1, 6)),
    [`${item}_amount_in_usd`]: money(random, Math.round(usd * (0.6 + random.next() * 0.8))),
  }));
  return { type: `${item}_info`, details };
}

/** Arrivals by air answer all twelve items; everyone else only the two currency questions. */
interface CurrencyAnswers {
  readonly php: boolean;
  readonly foreign: boolean;
}

function customs(random: SeededRandom, trip: Trip): { part: Part; currency: CurrencyAnswers } {
  if (!(trip.air && trip.arrival)) {
    const php = random.chance(0.04);
    const foreign = random.chance(0.06);
    return {
      part: { philippine_currency: answer(random, php), foreign_currency: answer(random, foreign) },
      currency: { php, foreign },
    };
  }
  const yes = Object.fromEntries(
    CUSTOMS_ITEMS.map((item) => [item, random.chance(CUSTOMS_YES_RATE[item])]),
  ) as { [K in CustomsItem]: boolean };
  const entries = CUSTOMS_ITEMS.filter((item) => yes[item])
    .map((item) => customsEntry(random, item))
    .filter((entry) => entry !== undefined);
  const goods = random.chance(0.25);
  return {
    part: {
      total_amount_of_goods: answer(random, goods),
      ...(goods ? { amount_declaration: money(random, random.int(50, 3000)) } : {}),
      ...Object.fromEntries(CUSTOMS_ITEMS.map((item) => [item, answer(random, yes[item])])),
      ...(entries.length > 0 ? { custom_declaration_details: entries } : {}),
    },
    currency: { php: yes.philippine_currency, foreign: yes.foreign_currency },
  };
}

function currencyDeclaration(
  random: SeededRandom,
  t: Traveller,
  trip: Trip,
  currency: CurrencyAnswers,
  createdDay: string,
): Part {
  if (!currency.php && !currency.foreign) return {};
  type Instrument = NonNullable<Body["instrument_information"]>[number];
  const instruments: { -readonly [K in keyof Instrument]: Instrument[K] }[] = [];
  if (currency.php) {
    // Declared because it is above PhP 50,000 (001 §9).
    const amount = money(random, random.int(50_001, 250_000));
    instruments.push({ id: "1", currency: "PHP", monetaryInstrument: "Cash", amount });
  }
  if (currency.foreign) {
    instruments.push({
      id: String(instruments.length + 1),
      currency: random.chance(0.5) ? "USD" : trip.partner.currency,
      monetaryInstrument: random.pick(MONETARY_INSTRUMENTS),
      amount: money(random, random.int(10_001, 40_000)),
    });
  }
  if (random.chance(0.1)) instruments.forEach((instrument, i) => (instrument.id = i + 1));

  const owner: Part = {
    owner_currency_declaration_first_name: t.first,
    ...(t.middle ? { owner_currency_declaration_middle_name: t.middle } : {}),
    owner_currency_declaration_last_name: t.last,
    ...(t.suffix ? { owner_currency_declaration_suffix: t.suffix } : {}),
    owner_currency_declaration_occupation: t.occupation,
    owner_currency_declaration_country: t.home.country,
    owner_currency_declaration_state_details: t.home.state,
    owner_currency_declaration_municipality_details: t.home.municipality,
    ...(t.home.barangay ? { owner_currency_declaration_barangay: t.home.barangay } : {}),
    owner_currency_declaration_street: t.home.street,
    owner_currency_declaration_pincode: t.home.postcode,
  };

  let recipient: Part = {};
  if (random.chance(0.4)) {
    const place = philippinePlace(random, trip.area);
    const business = random.chance(0.5);
    const sex = random.chance(0.5) ? "Male" : "Female";
    recipient = {
      ...(business
        ? { recipient_currency_declaration_business_name: random.pick(BUSINESSES) }
        : {
            recipient_currency_declaration_first_name: nameFrom(random, FILIPINO_NAMES, sex),
            recipient_currency_declaration_last_name: random.pick(FILIPINO_NAMES.last),
            recipient_currency_declaration_occupation: random.pick(FILIPINO_OCCUPATIONS),
          }),
      recipient_currency_declaration_country: place.country,
      recipient_currency_declaration_state_details: place.state,
      recipient_currency_declaration_municipality_details: place.municipality,
      ...(place.barangay ? { recipient_currency_declaration_barangay: place.barangay } : {}),
      recipient_currency_declaration_street: place.street,
      recipient_currency_declaration_pincode: place.postcode,
      // The BSP authorisation date shows with a business recipient (001 §2).
      ...(business ? { date_of_bsp: addDays(createdDay, -random.int(1, 20)) } : {}),
    };
  }

  const byHand = random.chance(0.85);
  return {
    // The declaration shows only with an instrument list; some travellers never fill it in.
    ...(random.chance(0.75) ? { instrument_information: instruments } : {}),
    ...owner,
    ...recipient,
    sources_of_currencies_salary: answer(random, random.chance(0.7)),
    purpose_of_transport_leisure: answer(random, random.chance(0.5)),
    physically_transferred: answer(random, byHand),
    ...(byHand
      ? {}
      : {
          name_of_courrier: random.pick(COURIERS),
          bill_of_landing: `BL${random.digits(9)}`,
          date_of_bill_of_landing: addDays(createdDay, -random.int(1, 10)),
        }),
    no_of_days_philippines: String(random.int(3, 60)),
    ...(random.chance(0.6)
      ? { date_of_last_travel_philippines: addDays(createdDay, -random.int(60, 1500)) }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// One order

function demoOrder(random: SeededRandom, orderId: string, createdMs: number): PlaceOrderRequestBody {
  const createdDay = dayOf(createdMs);
  const priority = random.chance(0.28);
  const future = random.chance(0.1);
  const processingDay = future ? addDays(createdDay, random.int(1, 120)) : createdDay;

  const traveller = makeTraveller(random);
  const trip = makeTrip(random, traveller, processingDay);
  const declared = customs(random, trip);

  return {
    order_id: orderId,
    processing_mode: priority
      ? random.weighted([
          ["Priority Processing", 80],
          ["priority", 20],
        ])
      : random.weighted([
          ["Regular Processing", 60],
          ["Standard Processing", 25],
          ["standard", 15],
        ]),
    landing_domain: random.chance(0.62) ? "primary" : "secondary",
    // What the customer paid, for the invoice (ADMIN-6); fixed per mode, so no random draw moves.
    payment_amount: priority ? "79.00" : "49.00",
    payment_currency: "USD",
    // Same-day orders often leave the processing date to its default (created_at's day).
    ...(future || random.chance(0.7) ? { processing_date: processingDay } : {}),
    created_at: random.chance(0.25) ? manilaTimestamp(createdMs) : new Date(createdMs).toISOString(),
    ...identity(random, orderId, traveller, createdDay),
    ...travel(random, traveller, trip),
    ...destination(random, traveller, trip),
    ...health(random),
    ...(trip.air && trip.arrival ? arrivalByAir(random, traveller) : {}),
    ...declared.part,
    ...currencyDeclaration(random, traveller, trip, declared.currency, createdDay),
  };
}
