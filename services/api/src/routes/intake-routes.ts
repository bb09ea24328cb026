import { Result } from "effect";
import { decodePlaceOrderRequest, PlaceOrderRequest } from "@etd/write";
import type { Endpoint } from "../http/endpoint.ts";
import { fail } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { replyTo, runOrderCommand } from "../commands/run-command.ts";

/**
 * Intake: the customer-facing site places a paid order (001 §3's fields, flat, snake_case) with
 * its service token. Placing the same order id twice is refused, so the site may retry safely.
 */
export const intakeEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "post",
    path: "/intake/orders",
    guard: "service",
    summary: "Place a paid order from the customer-facing site (service token)",
    body: PlaceOrderRequest,
    handle: async (context) => {
      const decoded = decodePlaceOrderRequest(context.req.body);
      if (Result.isFailure(decoded)) {
        const errors = decoded.failure.errors;
        return fail(400, errors[0] ? `${errors[0].field}: ${errors[0].message}` : "The order is not valid.", { errors });
      }
      const ran = await runOrderCommand(deps, context, { type: "PlaceOrder", ...decoded.success }, "order-intake");
      return replyTo(ran, "Order has been placed successfully");
    },
  },
];
