import * as Schema from "effect/Schema";
import { padded, stringOrInteger } from "@etd/events/checks";

const SELECT_GATEWAY = "Please select a gateway.";

/** ADMIN-2: `gatewayDetails.gatewayId` is the id the gateway list hands out; 0 primary domain, 1 secondary. */
export const GatewaySettingRequest = Schema.Struct({
  gatewayDetails: Schema.Struct({
    gatewayId: Schema.Union([Schema.String, Schema.Int])
      // Any integer reads as such an id.
      .check(stringOrInteger(padded("[A-Za-z0-9_-]{1,64}"), {}, SELECT_GATEWAY))
      .pipe(Schema.annotateKey({ messageMissingKey: SELECT_GATEWAY })),
    isSecondaryDomain: Schema.Literals([0, 1, "0", "1"]).pipe(
      Schema.annotateKey({ messageMissingKey: "Please choose the domain." }),
    ),
  }).pipe(Schema.annotateKey({ messageMissingKey: SELECT_GATEWAY })),
});
