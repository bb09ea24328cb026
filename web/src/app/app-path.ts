import type { RegisteredRouter, ToOptions } from "@tanstack/react-router";

/** Every address the route tree serves ("/admin/recent-order", "/admin/manage-team/$teamMemberId", …), as a link names it. */
export type AppPath = Exclude<NonNullable<ToOptions<RegisteredRouter>["to"]>, "." | "..">;
