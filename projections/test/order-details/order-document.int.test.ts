import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import { CUSTOMS_ITEMS, IsoDate, type OrderId } from "@etd/events";
import { orderDetails, orderDetailsProjection } from "../../src/order-details/index.ts";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import { ALICIA, asStaff, CARLO, createLog, demoOrders, MARIA, pick, placeOrder, refOf } from "./support/story.ts";

/*
 * The order document the view page reads (ORDER-1, ORDER-4..7): every field of 001 §3 "Order as
 * read in the view page", for the trip variants the page shows differently.
 */

const demo = demoOrders();
const air = (o: (typeof demo)[number]) => o.input.application.transportation_type === "air";

const arrivalByAir = pick(
  demo,
  "an arrival by air with customs entries and a currency declaration",
  (o) =>
    air(o) &&
    o.input.application.travel_type === "arrival" &&
    (o.input.personal.custom_declaration_details?.length ?? 0) > 0 &&
    (o.input.personal.instrument_information?.length ?? 0) > 0 &&
    o.body.processing_mode === "Regular Processing",
);
const departureByAir = pick(demo, "a departure by air", (o) => air(o) && o.input.application.travel_type === "departure");
const bySea = pick(demo, "a trip by sea", (o) => o.input.application.transportation_type === "sea" && o.input.application.travel_type === "arrival");
const priority = pick(demo, "a priority order", (o) => o.input.processingMode === "priority" && o !== arrivalByAir);

describe.skipIf(!(await postgresAvailable()))("the order document (ORDER-1, ORDER-4..7)", () => {
  let harness: Harness;
  const log = createLog();

  beforeAll(async () => {
    harness = await openHarness([orderDetailsProjection]);
    for (const order of [arrivalByAir, departureByAir, bySea, priority]) placeOrder(log, order.input);
    // The arrival-by-air order is worked on: assigned, moved, evidence recorded.
    const worked = placeOrder(log, { ...arrivalByAir.input, orderId: "900001" as OrderId });
    log.advance(95);
    worked.run({ type: "AssignOrder", orderId: worked.orderId, assignee: refOf(ALICIA), now: log.now() }, asStaff(ALICIA));
    log.advance(30);
    worked.run({ type: "ChangeStatus", orderId: worked.orderId, to: "CustomerCalled", actor: ALICIA, permanentDelete: false }, asStaff(ALICIA));
    worked.run(
      { type: "RecordTransactionDetails", orderId: worked.orderId, transactionId: "ch_3PqX7LKj", merchantName: "ETD Services Ltd", actor: MARIA },
      asStaff(MARIA),
    );
    worked.run(
      { type: "RecordDefencePack", orderId: worked.orderId, packType: 1, fileName: "defence-pack-1.pdf", storedPath: "docs/900001/defence-pack-1.pdf", actor: MARIA },
      asStaff(MARIA),
    );
    worked.run(
      {
        type: "AddRemark",
        orderId: worked.orderId,
        remark: "Customer disputes the charge",
        remarkerName: CARLO.name,
        whatsapp: false,
        telephone: true,
        statusRefund: true,
        voided: false,
        chargeBack: false,
        reportError: false,
        today: IsoDate.make("2025-03-14"),
        // Not the assignee: an Admin may work anyone's order (QUEUE-12).
        actor: CARLO,
      },
      asStaff(CARLO),
    );
    await harness.apply(log.events);
  });
  afterAll(async () => harness?.close());

  const details = async (orderId: string) => {
    const found = await orderDetails(harness.driver.query, orderId);
    if (found === undefined) throw new Error(`order ${orderId} not in the read model`);
    return found;
  };

  it("holds every application and personal field the order was placed with, by its spec name (ORDER-1)", async () => {
    for (const { input } of [arrivalByAir, departureByAir, bySea, priority]) {
      const document = await details(input.orderId);
      expect(document).toMatchObject({ ...input.application, ...input.personal });
    }
  });

  it("adds the processing fields: status, domain, assignee, processing date and month, created at (001 §3)", async () => {
    const { input } = arrivalByAir;
    expect(await details(input.orderId)).toMatchObject({
      order_id: input.orderId,
      process_status: "New",
      process_status_label: "New",
      landing_domain: input.landingDomain,
      assign_to: "",
      processing_date: input.processingDate,
      process_month: input.processingDate.slice(0, 7),
      created_at: input.createdAt,
    });
    expect(await details(priority.input.orderId)).toMatchObject({ process_status: "Priority", assign_to: "" });
  });

  it("shows Regular Processing as Standard Processing, and Priority Processing as it is (ORDER-4)", async () => {
    expect(arrivalByAir.body.processing_mode).toBe("Regular Processing");
    expect((await details(arrivalByAir.input.orderId)).processing_mode).toBe("Standard Processing");
    expect((await details(priority.input.orderId)).processing_mode).toBe("Priority Processing");
  });

  it("has the arrival-by-air rows: flight, airports, destination, health, and the counts (ORDER-5)", async () => {
    const document = await details(arrivalByAir.input.orderId);
    expect(document).toMatchObject({ transportation_type: "air", travel_type: "arrival" });
    for (const key of ["first_name", "last_name", "email", "passport_number", "date_of_birth", "permanent_country_of_residence"] as const) {
      expect(document[key], key).toEqual(expect.any(String));
    }
    for (const key of ["name_of_airline", "flight_number", "airport_of_origin", "airport_of_destination", "date_of_travel", "country_visited", "symtoms"] as const) {
      expect(document[key], key).toEqual(expect.any(String));
    }
    for (const key of ["family_members_below_18", "family_members_18_and_above", "baggage_checked_in", "baggage_hand_carried"] as const) {
      expect(document[key], key).toEqual(expect.any(Number));
    }
  });

  it("defaults the counts to 0 where the form has none, as for a departure (ORDER-5, 001 §9)", async () => {
    const document = await details(departureByAir.input.orderId);
    expect(document).toMatchObject({
      travel_type: "departure",
      family_members_below_18: 0,
      family_members_18_and_above: 0,
      baggage_checked_in: 0,
      baggage_hand_carried: 0,
    });
  });

  it("has the sea rows: vessel, cabin (voyage number) and seaports (ORDER-5)", async () => {
    const document = await details(bySea.input.orderId);
    expect(document.transportation_type).toBe("sea");
    for (const key of ["vessel_name", "cabin_number", "seaport_of_origin", "seaport", "seaport_of_destination"] as const) {
      expect(document[key], key).toEqual(expect.any(String));
    }
    expect(document.name_of_airline).toBeUndefined();
  });

  it("has the twelve customs answers and the numbered entries behind each Yes (ORDER-6)", async () => {
    const document = await details(arrivalByAir.input.orderId);
    for (const item of CUSTOMS_ITEMS) expect(document[item], item).toMatch(/^(Yes|No)$/);
    expect(document.custom_declaration_details).toEqual(arrivalByAir.input.personal.custom_declaration_details);
    for (const entry of document.custom_declaration_details ?? []) {
      const item = entry.type.replace(/_info$/, "");
      expect(document[item as (typeof CUSTOMS_ITEMS)[number]]).toBe("Yes");
      for (const detail of entry.details) {
        expect(Object.keys(detail).sort()).toEqual([`${item}_amount_in_usd`, `${item}_description`, `${item}_quantity`]);
      }
    }
    // A departure answers only the two currency questions.
    const departure = await details(departureByAir.input.orderId);
    expect(CUSTOMS_ITEMS.filter((item) => departure[item] !== undefined)).toEqual(["philippine_currency", "foreign_currency"]);
  });

  it("has the currency declaration: instruments, owner block and the transfer answers (ORDER-7)", async () => {
    const document = await details(arrivalByAir.input.orderId);
    expect(document.instrument_information).toEqual(arrivalByAir.input.personal.instrument_information);
    expect(document.owner_currency_declaration_first_name).toBe(arrivalByAir.input.personal.first_name);
    expect(document.owner_currency_declaration_last_name).toBe(arrivalByAir.input.personal.last_name);
    for (const key of ["sources_of_currencies_salary", "purpose_of_transport_leisure", "physically_transferred", "no_of_days_philippines"] as const) {
      expect(document[key], key).toEqual(expect.any(String));
    }
  });

  it("follows the order: status, assignee, refund date, transaction details and defence packs (ORDER-13)", async () => {
    const document = await details("900001");
    expect(document).toMatchObject({
      process_status: "Refund",
      process_status_label: "Refund",
      assign_to: ALICIA.name,
      refund_date: "2025-03-14",
      transaction_id: "ch_3PqX7LKj",
      merchant_name: "ETD Services Ltd",
      personal_data_erased: false,
    });
    expect(document.defencePacks).toEqual([
      { packType: 1, file1: "defence-pack-1.pdf", path: "docs/900001/defence-pack-1.pdf", generated_at: expect.any(String) },
    ]);
    expect(document.mailHistory).toEqual([]);
    expect(document.uploadDoc).toEqual([]);
    expect(document.downloadHistory).toEqual([]);
  });

  it("answers nothing for an order that was never placed", async () => {
    expect(await orderDetails(harness.driver.query, "100000999")).toBeUndefined();
  });
});
