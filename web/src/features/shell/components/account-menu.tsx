import type { ReactNode } from "react";
import { firstUse, MENU_TRIGGER_KEYS, StandInButton, useFirstUse } from "../../../components/ui/first-use.tsx";

/*
 * The account menu of the top bar (SHELL-2: two-factor sign-in, logout). Every screen shows its
 * button, few open it: the menu's code is fetched on first use (components/ui/first-use.tsx) and
 * the same button stands in until then.
 */

const accountMenu = firstUse<{ readonly label: string; readonly children: ReactNode }>(() =>
  import("./account-menu-trigger.tsx").then((module) => module.AccountMenuTrigger),
);

export const AccountMenu = ({ name }: { readonly name: string }) => {
  const { Component, resume, standIn } = useFirstUse(accountMenu);
  const label = `Account menu for ${name}`;
  const face = (
    <>
      <span aria-hidden="true" className="avatar">
        {name.trim().charAt(0).toUpperCase() || "?"}
      </span>
      <span aria-hidden="true" className="caret" />
    </>
  );
  return Component ? (
    <Component label={label} resume={resume}>
      {face}
    </Component>
  ) : (
    <StandInButton standIn={standIn} keys={MENU_TRIGGER_KEYS} className="button user-menu-button" aria-label={label} aria-haspopup="true" aria-expanded={false}>
      {face}
    </StandInButton>
  );
};
