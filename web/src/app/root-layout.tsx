import { Outlet } from "@tanstack/react-router";
import { Toaster } from "../components/ui/toast.tsx";

/*
 * Every page: the current route and the toasts (CROSS-2). The bridge that lets react-aria links
 * and menu items navigate through the router lives in the admin shell, the only place that has
 * them (features/shell/components/admin-layout.tsx), so the sign-in page loads no react-aria.
 */
export const RootLayout = () => (
  <>
    <Outlet />
    <Toaster />
  </>
);
