import type { LandingDomain } from "./vocabulary.ts";

/*
 * The two brands of the same service, one per landing domain (001 §1, PUBLIC-3): the name
 * travellers know, the mail domain the order page shows after an order id and mails are signed
 * with, the colours and links of the public pages' header and footer. The order picks its brand,
 * never the address a visitor typed. Neither the spec nor DESIGN names the real ones, so all use
 * placeholders under the reserved `.example` top-level domain; a deployment replaces these strings.
 */

export interface BrandLink {
  readonly label: string;
  /** Absolute, on the brand's own site. */
  readonly href: string;
}

/** What the public pages wear (PUBLIC-3): a brand's, or the neutral tracker's. */
export interface Look {
  readonly name: string;
  /** Where "Contact Support" writes to. */
  readonly supportEmail: string;
  /**
   * The header's background and the buttons (white text on it passes WCAG AA, 4.5:1), and a
   * lighter tint for highlighted surfaces (dark text on it passes too).
   */
  readonly colors: { readonly primary: string; readonly tint: string };
  /** The navigation bar, after "Track Order" (ours). */
  readonly navigation: readonly BrandLink[];
  /** The footer's links. */
  readonly footerLinks: readonly BrandLink[];
}

export interface Brand extends Look {
  /** The domain mails are signed with and the order page shows after an order id. */
  readonly mailDomain: string;
}

const site = (host: string) => ({
  navigation: [
    { label: "Home", href: `https://${host}/` },
    { label: "Apply Now", href: `https://${host}/apply` },
    { label: "FAQ", href: `https://${host}/faq` },
  ],
  footerLinks: [
    { label: "Privacy Policy", href: `https://${host}/privacy-policy` },
    { label: "Terms and Conditions", href: `https://${host}/terms` },
    { label: "Refund Policy", href: `https://${host}/refund-policy` },
  ],
});

export const BRANDS: { readonly [D in LandingDomain]: Brand } = {
  primary: {
    name: "Philippines eTravel Declaration",
    mailDomain: "etd-primary.example",
    supportEmail: "support@etd-primary.example",
    colors: { primary: "#0b3d91", tint: "#e6edf9" },
    ...site("etd-primary.example"),
  },
  secondary: {
    name: "eTravel Pass Philippines",
    mailDomain: "etd-secondary.example",
    supportEmail: "help@etd-secondary.example",
    colors: { primary: "#8a1538", tint: "#f8e9ee" },
    ...site("etd-secondary.example"),
  },
};

/**
 * The track page before an order is proven (PUBLIC-1): the visitor has typed an id, nothing more,
 * and a brand shown for that id would tell whether it exists. So the page wears the service's
 * neutral look until the id and e-mail match.
 */
export const TRACKER_LOOK: Look = {
  name: "Philippines E-Travel",
  supportEmail: "support@etd-tracker.example",
  colors: { primary: "#1f3a5f", tint: "#e8eef5" },
  navigation: [],
  footerLinks: [],
};
