import { GatewayId } from "@etd/events";
import { describe, expect, it } from "vitest";
import { activeGatewayFor, foldEvents, gatewayDecider, type SelectGateway } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { staffMetadata, systemMetadata } from "../support/metadata.ts";
import { storedEvent } from "../support/order-fixtures.ts";

const spec = specFor(gatewayDecider);

const PAYPAL = GatewayId.make("1");
const STRIPE = GatewayId.make("2");

const registered = (gatewayId: GatewayId, gatewayName: string) =>
  storedEvent("GatewayRegistered", { gatewayId, gatewayName }, systemMetadata("demo-data"));
const selected = (gatewayId: GatewayId, domain: "primary" | "secondary", previousGatewayId?: GatewayId) =>
  storedEvent(
    "GatewaySelected",
    { gatewayId, domain, ...(previousGatewayId === undefined ? {} : { previousGatewayId }) },
    staffMetadata(),
  );

const BOTH = [registered(PAYPAL, "PayPal"), registered(STRIPE, "Stripe")];

const select = (gatewayId: GatewayId, domain: "primary" | "secondary"): SelectGateway => ({
  type: "SelectGateway",
  gatewayId,
  domain,
});

describe("ADMIN-2 registering gateways", () => {
  it("makes a gateway available to choose", () => {
    spec
      .given([])
      .when({ type: "RegisterGateway", gatewayId: PAYPAL, gatewayName: "PayPal" })
      .then([{ type: "GatewayRegistered", data: { gatewayId: PAYPAL, gatewayName: "PayPal" } }]);
  });

  it("refuses an id that is already registered, naming the gateway", () => {
    spec
      .given(BOTH)
      .when({ type: "RegisterGateway", gatewayId: STRIPE, gatewayName: "Stripe" })
      .thenRefuses("conflict", "Gateway Stripe is already registered.");
  });
});

describe("ADMIN-2 one active gateway per domain", () => {
  it("selects the first gateway for a domain", () => {
    spec
      .given(BOTH)
      .when(select(PAYPAL, "primary"))
      .then([{ type: "GatewaySelected", data: { gatewayId: PAYPAL, domain: "primary" } }]);
  });

  it("replaces the domain's active gateway, naming the one it replaces", () => {
    spec
      .given([...BOTH, selected(PAYPAL, "primary")])
      .when(select(STRIPE, "primary"))
      .then([{ type: "GatewaySelected", data: { gatewayId: STRIPE, domain: "primary", previousGatewayId: PAYPAL } }]);
  });

  it("keeps each domain's choice apart", () => {
    spec
      .given([...BOTH, selected(PAYPAL, "primary")])
      .when(select(PAYPAL, "secondary"))
      .then([{ type: "GatewaySelected", data: { gatewayId: PAYPAL, domain: "secondary" } }]);
  });

  it("succeeds without a change when the gateway is already the active one", () => {
    spec.given([...BOTH, selected(STRIPE, "secondary")]).when(select(STRIPE, "secondary")).then([]);
  });

  it("refuses a gateway that is not registered", () => {
    spec
      .given(BOTH)
      .when(select(GatewayId.make("9"), "primary"))
      .thenRefuses("not_found", "The selected gateway was not found.");
  });

  it("tells the API which gateway is active where", () => {
    const state = foldEvents(gatewayDecider, [
      ...BOTH,
      selected(PAYPAL, "primary"),
      selected(STRIPE, "secondary"),
      selected(STRIPE, "primary", PAYPAL),
    ]);
    expect(state.active).toEqual({ primary: STRIPE, secondary: STRIPE });
    expect(activeGatewayFor(state, "primary")).toEqual({ gatewayId: STRIPE, gatewayName: "Stripe" });
    expect(state.gateways.map((g) => g.gatewayName)).toEqual(["PayPal", "Stripe"]);
  });
});
