import { useQueryClient } from "@tanstack/react-query";
import { Outlet, useRouter, useRouterState, type ToOptions } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { RouterProvider } from "react-aria-components";
import { sessionAtom } from "../../../lib/session.ts";
import { twoFactorGateAtom } from "../../../lib/two-factor-gate.ts";
import { useLiveUpdates } from "../../../lib/use-live-updates.ts";
import { folderCountsQuery, useFolderCounts } from "../hooks/folder-counts.ts";
import { useNarrowScreen } from "../hooks/use-narrow-screen.ts";
import { AppHeader } from "./app-header.tsx";
import { SideMenu } from "./side-menu.tsx";

/** The drawer's code (react-aria's modal and focus handling) is fetched only on narrow screens. */
const MenuDrawer = lazy(() => import("./menu-drawer.tsx").then((module) => ({ default: module.MenuDrawer })));

/*
 * The admin shell (SHELL-1..5): side menu, top bar and the current screen. Below 992 px the menu
 * is a modal drawer (menu-drawer.tsx). The counts refetch on every route change and whenever the
 * queue read model moves.
 */
export const AdminLayout = () => {
  const session = useAtomValue(sessionAtom);
  const name = session?.name ?? "";
  // Behind the two-factor gate (issue 16) only its page shows: no menu, and nothing fetched that the server would refuse.
  const gated = useAtomValue(twoFactorGateAtom);
  const counts = useFolderCounts(name, { enabled: !gated });
  const narrow = useNarrowScreen();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const queryClient = useQueryClient();
  const router = useRouter();
  const firstRender = useRef(true);

  useLiveUpdates(gated ? undefined : session?.accessToken, session?.id ?? "");

  useEffect(() => {
    // The first render fetches them already.
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    void queryClient.invalidateQueries({ queryKey: folderCountsQuery(name).queryKey });
    setDrawerOpen(false);
  }, [pathname, queryClient, name]);

  const menu = <SideMenu role={session?.role} counts={counts} onNavigate={() => setDrawerOpen(false)} />;

  return (
    // react-aria links and menu items (`href`) navigate through the router instead of reloading the page.
    <RouterProvider navigate={(href) => void router.navigate({ href })} useHref={(href) => router.buildLocation({ to: href } as ToOptions).href}>
      <div className="shell">
        {gated ? null : narrow ? (
          <Suspense fallback={null}>
            <MenuDrawer isOpen={drawerOpen} onOpenChange={setDrawerOpen}>
              {menu}
            </MenuDrawer>
          </Suspense>
        ) : (
          <aside className="sidebar">{menu}</aside>
        )}
        <div className="shell-main">
          <AppHeader name={name} narrow={narrow && !gated} menuOpen={drawerOpen} onToggleMenu={() => setDrawerOpen((open) => !open)} />
          <main className="content" id="content">
            <Outlet />
          </main>
        </div>
      </div>
    </RouterProvider>
  );
};
