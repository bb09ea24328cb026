import type { LandingDomain } from "./vocabulary.ts";

/*
 * The two brands of the same service, one per landing domain (001 §1, PUBLIC-3): the name
 * travellers know, and the mail domain the order page shows after an order id and mails are
 * signed with. Neither the spec nor DESIGN names the real ones, so both use placeholders under
 * the reserved `.example` top-level domain; a deployment replaces these strings.
 */

export interface Brand {
  readonly name: string;
  readonly mailDomain: string;
}

export const BRANDS: { readonly [D in LandingDomain]: Brand } = {
  primary: { name: "Philippines eTravel Declaration", mailDomain: "etd-primary.example" },
  secondary: { name: "eTravel Pass Philippines", mailDomain: "etd-secondary.example" },
};
