import { Button, Menu, MenuItem, MenuTrigger, Popover } from "react-aria-components";
import { Logo, PRODUCT_TITLE } from "../../../components/ui/logo.tsx";

/** The top bar (SHELL-2): drawer toggle on narrow screens, logo and title, welcome, online, and the account menu (two-factor sign-in, logout). */
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
    <div className="app-brand">
      <Logo size={36} />
      <span className="app-title">{PRODUCT_TITLE}</span>
    </div>
    <div className="app-user">
      <span className="welcome">
        Welcome, <strong className="user-name">{name}</strong>
      </span>
      <span className="online">
        <span className="online-dot" aria-hidden="true" />
        Online
      </span>
      <MenuTrigger>
        <Button className="button user-menu-button" aria-label={`Account menu for ${name}`}>
          <span aria-hidden="true" className="avatar">
            {name.trim().charAt(0).toUpperCase() || "?"}
          </span>
          <span aria-hidden="true" className="caret" />
        </Button>
        <Popover placement="bottom end" className="popover">
          <Menu className="menu" aria-label="Account">
            <MenuItem className="menu-item" href="/admin/two-factor">
              Two-factor sign-in
            </MenuItem>
            <MenuItem className="menu-item" href="/logout">
              Logout
            </MenuItem>
          </Menu>
        </Popover>
      </MenuTrigger>
    </div>
  </header>
);
