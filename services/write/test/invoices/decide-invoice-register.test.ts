import { describe, expect, it } from "vitest";
import { GatewayId, OrderId, formatInvoiceNumber } from "@etd/events";
import { foldEvents, invoiceRegisterDecider, issuedTo, type IssueInvoiceNumber } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { staffMetadata } from "../support/metadata.ts";
import { storedEvent } from "../support/order-fixtures.ts";

/*
 * ADMIN-6: the invoice register of one year gives each order one number, 1, 2, 3 … with no gap
 * (the handler appends at the register's version; the concurrency is shown against PostgreSQL in
 * services/server/test/invoices.int.test.ts).
 */

const spec = specFor(invoiceRegisterDecider);

const issue = (orderId: string, year = 2026): IssueInvoiceNumber => ({
  type: "IssueInvoiceNumber",
  year,
  orderId: OrderId.make(orderId),
  gateway: { gatewayId: GatewayId.make("stripe"), gatewayName: "Stripe" },
  site: "eTravel Pass Philippines",
  amount: "49.00",
  currency: "USD",
});

const issued = (orderId: string, number: number, year = 2026) =>
  storedEvent(
    "InvoiceNumberIssued",
    { year, number, orderId, gatewayId: "stripe", gatewayName: "Stripe", amount: "49.00", currency: "USD" },
    staffMetadata(undefined, `${String(year)}-03-14T09:00:00.000Z`),
  );

const issuedEvent = (orderId: string, number: number, year = 2026) => ({
  type: "InvoiceNumberIssued" as const,
  data: { year, number, orderId: OrderId.make(orderId), gatewayId: GatewayId.make("stripe"), gatewayName: "Stripe", amount: "49.00", currency: "USD" },
});

describe("ADMIN-6 the invoice register of a year", () => {
  it("gives the first order of the year number 1", () => {
    spec.given([]).when(issue("100234")).then([issuedEvent("100234", 1)]);
  });

  it("gives the next order the next number: the count so far plus one", () => {
    spec.given([issued("100234", 1), issued("100235", 2)]).when(issue("100236")).then([issuedEvent("100236", 3)]);
  });

  it("gives an order it has numbered nothing new: the same order twice keeps its number", () => {
    spec.given([issued("100234", 1), issued("100235", 2)]).when(issue("100234")).then([]);
    const state = foldEvents(invoiceRegisterDecider, [issued("100234", 1), issued("100235", 2)]);
    expect(issuedTo(state, OrderId.make("100234"))).toEqual({ number: "2026-000001", issuedAt: "2026-03-14T09:00:00.000Z", gatewayName: "Stripe", amount: "49.00", currency: "USD" });
  });

  it("starts the next year at 1 again (each year has its own register)", () => {
    spec.given([]).when(issue("100240", 2027)).then([issuedEvent("100240", 1, 2027)]);
    expect(formatInvoiceNumber(2027, 1)).toBe("2027-000001");
    expect(formatInvoiceNumber(2026, 42)).toBe("2026-000042");
  });

  it("refuses another year's number in this year's register, and an amount an invoice cannot state", () => {
    spec.given([issued("100234", 1)]).when(issue("100235", 2027)).thenRefuses("invalid", "This is the invoice register of 2026, not of 2027.");
    spec.given([]).when({ ...issue("100235"), amount: "49" }).thenRefuses("invalid", "Order 100235's payment is not an amount and currency an invoice can state.");
    spec.given([]).when({ ...issue("100235"), gateway: { gatewayId: GatewayId.make("stripe"), gatewayName: "  " } }).thenRefuses("invalid", "An invoice needs the name of the payment gateway.");
  });

  it("ADMIN-2: refuses an order whose site has no active gateway, naming the site; an order it has numbered keeps its number", () => {
    spec
      .given([issued("100234", 1)])
      .when({ ...issue("100235"), gateway: undefined })
      .thenRefuses(
        "conflict",
        "No payment gateway is active for eTravel Pass Philippines, the site of order 100235, so no invoice can be issued. Choose one under Gateway Setting.",
      );
    spec.given([issued("100234", 1)]).when({ ...issue("100234"), gateway: undefined }).then([]);
  });
});
