import { useRef, type ReactNode } from "react";
import { Button, Menu, MenuItem, MenuTrigger, Popover, RootMenuTriggerStateContext } from "react-aria-components";
import type { ResumeProps } from "../../../components/ui/first-use.tsx";
import { ResumeFirstPress } from "../../../components/ui/resume-first-press.tsx";

/** The account menu itself (react-aria's menu in a popover), fetched on first use by account-menu.tsx, which gives the button's label and face. */
export const AccountMenuTrigger = ({ label, children, resume }: { readonly label: string; readonly children: ReactNode } & ResumeProps) => {
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <MenuTrigger>
      <Button ref={trigger} className="button user-menu-button" aria-label={label}>
        {children}
        <ResumeFirstPress resume={resume} state={RootMenuTriggerStateContext} trigger={trigger} />
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
  );
};
