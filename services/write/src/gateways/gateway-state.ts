import type { GatewayEvent, GatewayId, LandingDomain } from "@etd/events";

export interface Gateway {
  readonly gatewayId: GatewayId;
  readonly gatewayName: string;
}

export interface GatewaysState {
  /** In the order they were registered. */
  readonly gateways: ReadonlyArray<Gateway>;
  /** The one active gateway per domain; a domain nobody has chosen for yet has none. */
  readonly active: { readonly [D in LandingDomain]?: GatewayId };
}

export const initialGatewaysState: GatewaysState = { gateways: [], active: {} };

export const findGateway = (state: GatewaysState, gatewayId: GatewayId): Gateway | undefined =>
  state.gateways.find((gateway) => gateway.gatewayId === gatewayId);

export const activeGatewayFor = (state: GatewaysState, domain: LandingDomain): Gateway | undefined => {
  const gatewayId = state.active[domain];
  return gatewayId === undefined ? undefined : findGateway(state, gatewayId);
};

export const evolveGateways = (state: GatewaysState, event: GatewayEvent): GatewaysState => {
  switch (event.type) {
    case "GatewayRegistered":
      return {
        ...state,
        gateways: [
          ...state.gateways,
          { gatewayId: event.data.gatewayId, gatewayName: event.data.gatewayName },
        ],
      };
    case "GatewaySelected":
      return { ...state, active: { ...state.active, [event.data.domain]: event.data.gatewayId } };
  }
};
