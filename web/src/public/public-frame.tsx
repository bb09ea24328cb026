import type { Look } from "@etd/contract";
import { useEffect, type CSSProperties, type ReactNode } from "react";
import { configuredWidget, loadTranslateWidget, WIDGET_ELEMENT_ID } from "./translate-widget.ts";

/*
 * The public pages' header (translation widget, navigation bar) and footer (year 2025) in the
 * look of the order's brand or the neutral tracker's (PUBLIC-3).
 */

/** 001 §9: the footer says 2025, whatever today's date. */
export const FOOTER_YEAR = 2025;

export const PublicFrame = ({ look, onTrackPage, children }: { readonly look: Look; readonly onTrackPage: boolean; readonly children: ReactNode }) => {
  const hasWidget = configuredWidget() !== undefined;
  useEffect(loadTranslateWidget, []);
  // The brand's colours as custom properties, set through the DOM (no inline style in markup).
  const colours = { "--brand": look.colors.primary, "--brand-tint": look.colors.tint } as CSSProperties;
  return (
    <div className="public-page" style={colours}>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="public-header">
        <div className="public-header-top">
          <span className="public-brand">{look.name}</span>
          {hasWidget && <div id={WIDGET_ELEMENT_ID} className="translate-widget" />}
        </div>
        <nav aria-label="Main" className="public-nav">
          <ul>
            <li>
              <a href="/track-order" aria-current={onTrackPage ? "page" : undefined}>
                Track Order
              </a>
            </li>
            {look.navigation.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
            <li>
              <a href={`mailto:${look.supportEmail}`}>Contact Us</a>
            </li>
          </ul>
        </nav>
      </header>
      <main id="content" className="public-main">
        {children}
      </main>
      <footer className="public-footer">
        <ul className="public-footer-links">
          {look.footerLinks.map((link) => (
            <li key={link.href}>
              <a href={link.href}>{link.label}</a>
            </li>
          ))}
        </ul>
        <p>
          © {FOOTER_YEAR} {look.name}. All rights reserved.
        </p>
        <p className="public-footer-note">A private service that helps travellers with the Philippines' electronic travel declaration.</p>
      </footer>
    </div>
  );
};
