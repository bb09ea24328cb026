import type { GatewayId, LandingDomain } from "@etd/events";

/* Commands on the single `gateways` stream (Gateway Setting, ADMIN-2). */

/** Setup or demo data makes a payment gateway available to choose from. */
export interface RegisterGateway {
  readonly type: "RegisterGateway";
  readonly gatewayId: GatewayId;
  readonly gatewayName: string;
}

/** A domain's selector was submitted: that gateway becomes the domain's only active one. */
export interface SelectGateway {
  readonly type: "SelectGateway";
  readonly gatewayId: GatewayId;
  readonly domain: LandingDomain;
}

export type GatewayCommand = RegisterGateway | SelectGateway;
