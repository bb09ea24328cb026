import { Outlet, useRouter, type ToOptions } from "@tanstack/react-router";
import { RouterProvider } from "react-aria-components";
import { Toaster } from "../components/ui/toast.tsx";

/*
 * Every page: the toasts (CROSS-2) and the bridge that lets react-aria links and menu items
 * (`href`) navigate through the router instead of reloading the page.
 */
export const RootLayout = () => {
  const router = useRouter();
  return (
    <RouterProvider
      navigate={(href) => void router.navigate({ href })}
      useHref={(href) => router.buildLocation({ to: href } as ToOptions).href}
    >
      <Outlet />
      <Toaster />
    </RouterProvider>
  );
};
