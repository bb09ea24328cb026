import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoOrders } from "@etd/demo";
import { INTAKE_TOKEN, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("intake from the customer-facing site", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("needs the service token; a staff token does not do", async () => {
    const [body] = generateDemoOrders({ seed: 5, count: 1, now: new Date() });
    expect((await api.call("POST", "/intake/orders", body)).status).toBe(401);
    expect((await api.call("POST", "/intake/orders", body, await api.login("Admin"))).status).toBe(401);
    expect((await api.call("POST", "/intake/orders", body, "Bearer not-the-token-at-all-000000")).status).toBe(401);
  });

  it("places an order as OrderPlaced by order-intake, with personal data sealed in the raw row; a repeat is refused", async () => {
    const [body] = generateDemoOrders({ seed: 6, count: 1, now: new Date() });
    const placed = await api.call("POST", "/intake/orders", { ...body, order_id: "700000001" }, `Bearer ${INTAKE_TOKEN}`);
    expect(placed.body).toMatchObject({ status: 1, message: "Order has been placed successfully" });
    const [event] = await api.runtime.deps.store.readStream("order-700000001");
    expect(event!.type).toBe("OrderPlaced");
    expect(event!.metadata).toMatchObject({ actor: { kind: "system", name: "order-intake" } });
    expect((event!.data as { personal: { passport_number: string } }).personal.passport_number).toBe(body!.passport_number);

    const raw = await api.runtime.driver.query("select data::text as data from es_events where stream_id = 'order-700000001'");
    expect(raw[0]!.data).not.toContain(String(body!.passport_number));

    const again = await api.call("POST", "/intake/orders", { ...body, order_id: "700000001" }, `Bearer ${INTAKE_TOKEN}`);
    expect(again).toMatchObject({ status: 409, body: { status: 0, message: "Order 700000001 already exists." } });
  });

  it("answers field-level problems and appends nothing", async () => {
    const before = await api.eventCount();
    const [body] = generateDemoOrders({ seed: 7, count: 1, now: new Date() });
    const answer = await api.call("POST", "/intake/orders", { ...body, email: "nope", order_id: "12", surprise: true }, `Bearer ${INTAKE_TOKEN}`);
    expect(answer.status).toBe(400);
    expect(answer.body.status).toBe(0);
    const fields = (answer.body.data.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["email", "order_id", "surprise"]));
    expect(await api.eventCount()).toBe(before);
  });

  it("issue 25: refuses an address mail would refuse (a comma, a trailing comma) with a 400 naming the field, and appends nothing", async () => {
    const before = await api.eventCount();
    const [body] = generateDemoOrders({ seed: 8, count: 1, now: new Date() });
    const cases = [
      { email: "a,c@d.co", field: "email" },
      { email: "a@b.co,", field: "email" },
      { email: body!.email, confirm_email: "a,c@d.co", field: "confirm_email" },
    ];
    for (const [i, { field, ...addresses }] of cases.entries()) {
      const answer = await api.call("POST", "/intake/orders", { ...body, ...addresses, order_id: String(700_000_100 + i) }, `Bearer ${INTAKE_TOKEN}`);
      const message = "Must be a valid e-mail address, like name@example.com.";
      expect(answer).toEqual({ status: 400, body: { status: 0, message: `${field}: ${message}`, data: { errors: [{ field, message }] } } });
    }
    expect(await api.eventCount()).toBe(before);
    const fine = await api.call("POST", "/intake/orders", { ...body, email: "o'brien+visa@mail.example.ie", confirm_email: "O'Brien+visa@mail.example.ie", order_id: "700000199" }, `Bearer ${INTAKE_TOKEN}`);
    expect(fine.body).toMatchObject({ status: 1, message: "Order has been placed successfully" });
  });
});
