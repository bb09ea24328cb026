import * as Schema from "effect/Schema";
import { LANDING_DOMAINS } from "../vocabulary.ts";

/**
 * The two customer-facing sites (brands) an order can come from. Each has its own active payment
 * gateway and its own public-page look (001 §1, PUBLIC-3).
 */
export const LandingDomain = Schema.Literals(LANDING_DOMAINS);
export type LandingDomain = typeof LandingDomain.Type;
