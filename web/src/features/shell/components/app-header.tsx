import { Link } from "@tanstack/react-router";
import { Button } from "react-aria-components";
import { Logo, PRODUCT_TITLE } from "../../../components/ui/logo.tsx";
import { AccountMenu } from "./account-menu.tsx";

/** The top bar (SHELL-2): drawer toggle on narrow screens, logo and title (a link to the dashboard), welcome, online, and the account menu (two-factor sign-in, logout). */
export const AppHeader = ({
  name,
  narrow,
  menuOpen,
  onToggleMenu,
}: {
  name: string;
  narrow: boolean;
  menuOpen: boolean;
  onToggleMenu: () => void;
}) => (
  <header className="app-header">
    {narrow && (
      <Button className="icon-button menu-toggle" aria-label="Open menu" aria-expanded={menuOpen} onPress={onToggleMenu}>
        <span aria-hidden="true" className="hamburger" />
      </Button>
    )}
    {/* The way home from any page: the side menu lists the other folders, the dashboard's tiles the main ones (000 §2). */}
    <Link to="/admin" activeOptions={{ exact: true }} className="app-brand" aria-label={`${PRODUCT_TITLE}: dashboard`}>
      <Logo size={36} />
      <span className="app-title">{PRODUCT_TITLE}</span>
    </Link>
    <div className="app-user">
      <span className="welcome">
        Welcome, <strong className="user-name">{name}</strong>
      </span>
      <span className="online">
        <span className="online-dot" aria-hidden="true" />
        Online
      </span>
      <AccountMenu name={name} />
    </div>
  </header>
);
