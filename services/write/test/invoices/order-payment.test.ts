import { describe, expect, it } from "vitest";
import { orderDecider } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { PAYMENT, placeOrder } from "../support/order-fixtures.ts";

/*
 * ADMIN-6: what the customer paid arrives with the order (OrderPlaced.payment); the invoice states
 * it, so the order decider records only an amount and currency an invoice can print.
 */

const spec = specFor(orderDecider);
const REFUSAL = 'A payment is an amount with two decimals and a currency code, like "49.00" "USD".';

describe("ADMIN-6 the payment an order is placed with", () => {
  it("records it on OrderPlaced", () => {
    spec.given([]).when(placeOrder({ payment: PAYMENT })).then([{ type: "OrderPlaced", data: expect.objectContaining({ payment: PAYMENT }) }]);
  });

  it.each([
    ["an amount without decimals", { amount: "49", currency: "USD" }],
    ["a float-like amount", { amount: "49.5", currency: "USD" }],
    ["a lower-case currency", { amount: "49.00", currency: "usd" }],
    ["a currency name", { amount: "49.00", currency: "Dollars" }],
  ])("refuses %s", (_name, payment) => {
    spec.given([]).when(placeOrder({ payment })).thenRefuses("invalid", REFUSAL);
  });
});
