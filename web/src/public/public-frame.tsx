import type { Look } from "@etd/contract";
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from "react";
import { Toaster } from "../components/ui/toast.tsx";
import { configuredWidget, loadTranslateWidget, WIDGET_ELEMENT_ID } from "./translate-widget.ts";

/*
 * The public pages' header (translation widget, navigation bar) and footer (year 2025) in the
 * look of the order's brand or the neutral tracker's (PUBLIC-3), and where their toasts show.
 *
 * On a phone (public.css, below 36em) the navigation's links sit behind a Menu button, a
 * disclosure: the list opens in the page's flow under the button, so it covers nothing, and
 * Escape closes it. Wider screens show the links in one row and no button; the state is kept, not
 * read, there. The toasts are the first thing in <main>, held under the header (public.css), so
 * they never cover the brand's name and stay in a landmark.
 */

/** 001 §9: the footer says 2025, whatever today's date. */
export const FOOTER_YEAR = 2025;

const NAV_LINKS_ID = "public-nav-links";

export const PublicFrame = ({ look, onTrackPage, children }: { readonly look: Look; readonly onTrackPage: boolean; readonly children: ReactNode }) => {
  const hasWidget = configuredWidget() !== undefined;
  useEffect(loadTranslateWidget, []);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  };
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
        <nav aria-label="Main" className="public-nav" onKeyDown={closeOnEscape}>
          <button ref={menuButton} type="button" className="public-menu-button" aria-expanded={menuOpen} aria-controls={NAV_LINKS_ID} onClick={() => setMenuOpen((open) => !open)}>
            <span className="public-menu-icon" aria-hidden="true" />
            Menu
          </button>
          <ul id={NAV_LINKS_ID} data-open={menuOpen}>
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
        <Toaster />
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
