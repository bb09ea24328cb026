import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Outlet, useRouterState } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useEffect, useRef, useState } from "react";
import { Button, Dialog, Modal, ModalOverlay } from "react-aria-components";
import { sessionAtom } from "../../../lib/session.ts";
import { useLiveUpdates } from "../../live/hooks/use-live-updates.ts";
import { folderCountsQuery } from "../api/get-folder-counts.ts";
import { useNarrowScreen } from "../hooks/use-narrow-screen.ts";
import { AppHeader } from "./app-header.tsx";
import { SideMenu } from "./side-menu.tsx";

/*
 * The admin shell (SHELL-1..5): side menu, top bar and the current screen. Below 992 px the menu
 * is a modal drawer: focus moves into it, Escape or the close button closes it, and focus returns
 * to the toggle. The counts refetch on every route change and whenever the queue read model moves.
 */
export const AdminLayout = () => {
  const session = useAtomValue(sessionAtom);
  const name = session?.name ?? "";
  const counts = useQuery(folderCountsQuery(name)).data;
  const narrow = useNarrowScreen();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const queryClient = useQueryClient();
  const firstRender = useRef(true);

  useLiveUpdates(session?.accessToken);

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
    <div className="shell">
      {narrow ? (
        <ModalOverlay isOpen={drawerOpen} onOpenChange={setDrawerOpen} isDismissable className="drawer-overlay">
          <Modal className="drawer">
            <Dialog aria-label="Menu" className="drawer-dialog">
              <div className="drawer-head">
                <span className="drawer-title">Menu</span>
                <Button className="icon-button" aria-label="Close menu" onPress={() => setDrawerOpen(false)}>
                  <span aria-hidden="true">×</span>
                </Button>
              </div>
              {menu}
            </Dialog>
          </Modal>
        </ModalOverlay>
      ) : (
        <aside className="sidebar">{menu}</aside>
      )}
      <div className="shell-main">
        <AppHeader name={name} narrow={narrow} menuOpen={drawerOpen} onToggleMenu={() => setDrawerOpen((open) => !open)} />
        <main className="content" id="content">
          <Outlet />
        </main>
      </div>
    </div>
  );
};
