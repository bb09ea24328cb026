import * as Result from "effect/Result";
import { decodePlaceOrderRequest, PlaceOrderRequest } from "@etd/write";
import { readingInput, type Handlers } from "../http/endpoint.ts";
import { fail } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { replyTo, runOrderCommand } from "../commands/run-command.ts";

/**
 * Intake: the customer-facing site places a paid order (001 §3's fields, flat, snake_case) with
 * its service token. Placing the same order id twice is refused, so the site may retry safely.
 * The schema is the write side's (it builds the command from the fields), decoded once here with
 * its own messages: every field's problem, each prefixed with the field. It documents the body
 * too, the contract having no name for it.
 */
export const intakeHandlers = (deps: ApiDeps) =>
  ({
    placeOrder: readingInput(
      (req) =>
        Result.mapError(decodePlaceOrderRequest(req.body), ({ errors }) =>
          fail(400, errors[0] ? `${errors[0].field}: ${errors[0].message}` : "The order is not valid.", { errors }),
        ),
      async (context) => {
        const ran = await runOrderCommand(deps, context, { type: "PlaceOrder", ...context.input }, "order-intake");
        return replyTo(ran, "Order has been placed successfully");
      },
      PlaceOrderRequest,
    ),
  }) satisfies Partial<Handlers>;
