/*
 * Type-level test of the route tree (issue 10 item 7), checked by `npm run typecheck` (tsc -p
 * web/tsconfig.json includes test/), never run. Each `@ts-expect-error` line must fail to
 * typecheck: if the route types loosen (a route factory returning AnyRoute again, a cast context),
 * the line compiles, the directive is unused, and the typecheck fails.
 */
import { Link, redirect, useNavigate } from "@tanstack/react-router";
import type { AppPath } from "../src/app/app-path.ts";
import type { router } from "../src/router.tsx";

export type CheckedAgainst = typeof router;

export const LinksThatTypecheck = () => (
  <>
    <Link to="/admin/recent-order">a queue</Link>
    <Link to="/admin/recent-order" search={{ page: 2, size: 25 }}>a queue's second page</Link>
    <Link to="/admin/future-order" search={{ month: "2025-04" }}>a month of future orders</Link>
    <Link to="/admin/view-order/$orderId" params={{ orderId: "300001" }}>an order</Link>
    <Link to="/admin/manage-team/$teamMemberId" params={{ teamMemberId: "7" }}>a team member</Link>
  </>
);

export const LinksThatMustNotTypecheck = () => (
  <>
    {/* @ts-expect-error no route serves this address */}
    <Link to="/admin/no-such-screen">nowhere</Link>
    {/* @ts-expect-error the order page's link needs the order id */}
    <Link to="/admin/view-order/$orderId">an order without its id</Link>
    {/* @ts-expect-error the edit page's parameter is teamMemberId */}
    <Link to="/admin/manage-team/$teamMemberId" params={{ orderId: "7" }}>a wrong parameter</Link>
    {/* @ts-expect-error page is a number */}
    <Link to="/admin/recent-order" search={{ page: "two" }}>a wrong search</Link>
  </>
);

export const useNavigationThatMustNotTypecheck = () => {
  const navigate = useNavigate();
  // @ts-expect-error no route serves this address
  void navigate({ to: "/admin/recent-orders" });
  // @ts-expect-error redirects are checked too
  redirect({ to: "/sign-in", throw: true });
  // @ts-expect-error a menu entry or tile must name a served address (features/shell/menu-entries.ts)
  const menuTarget: AppPath = "/admin/my-orders";
  return menuTarget;
};
