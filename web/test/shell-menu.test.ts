import { describe, expect, it } from "vitest";
import { DASHBOARD_TILES, MENU_ENTRIES, menuFor } from "../src/lib/menu-entries.ts";

const labels = (role: Parameters<typeof menuFor>[0]) => menuFor(role).map((entry) => entry.label);

describe("the side menu (SHELL-1) and the dashboard tiles (SHELL-4)", () => {
  it("has the 15 entries of 000 §2 in order, with their routes, Audit (CARD-4) after the folders, Service Levels (issue 27) after Gateway Setting, Operations (issue 28) after it, then Logout", () => {
    expect(MENU_ENTRIES.map((entry) => [entry.to, entry.label])).toEqual([
      ["/admin/awaiting-response", "Awaiting Customer"],
      ["/admin/awaiting-govt", "Awaiting Govt"],
      ["/admin/future-order", "Future Orders"],
      ["/admin/contact-customer", "Contact Customer"],
      ["/admin/called", "Customer Called"],
      ["/admin/deleted-order", "Deleted Order"],
      ["/admin/order-history", "Order History"],
      ["/admin/refund-order", "Refunds"],
      ["/admin/chargeback", "Chargeback"],
      ["/admin/audit", "Audit"],
      ["/admin/country-order", "Country Order List"],
      ["/admin/manage-team", "Manage Team"],
      ["/admin/processed-order", "Order Processed"],
      ["/admin/send-invoice", "Manage Invoices"],
      ["/admin/gateway-setting", "Gateway Setting"],
      ["/admin/service-levels", "Service Levels"],
      ["/admin/operations", "Operations"],
      ["/admin/change-password", "Change Password"],
      ["/logout", "Logout"],
    ]);
  });

  it("issue 28: shows Operations to Admins only, as the permission table says", () => {
    expect(labels("Admin")).toContain("Operations");
    for (const role of ["Manager", "Team", "Telecaller", "Night Staff"] as const) expect(labels(role)).not.toContain("Operations");
  });

  it("shows Order Processed to Admins only", () => {
    expect(labels("Admin")).toContain("Order Processed");
    for (const role of ["Manager", "Team", "Telecaller", "Night Staff"] as const) expect(labels(role)).not.toContain("Order Processed");
  });

  it("shows Manage Team, Gateway Setting, Service Levels (issue 27) and Change Password to Admins and Managers", () => {
    for (const role of ["Admin", "Manager"] as const) expect(labels(role)).toEqual(expect.arrayContaining(["Manage Team", "Gateway Setting", "Service Levels", "Change Password"]));
    for (const role of ["Team", "Telecaller", "Night Staff"] as const) {
      expect(labels(role)).not.toContain("Manage Team");
      expect(labels(role)).not.toContain("Gateway Setting");
      expect(labels(role)).not.toContain("Service Levels");
      expect(labels(role)).not.toContain("Change Password");
    }
  });

  it("CARD-4, issue 14: shows the Audit area to Admins and Managers only, as the permission table says", () => {
    for (const role of ["Admin", "Manager"] as const) expect(labels(role)).toContain("Audit");
    for (const role of ["Team", "Telecaller", "Night Staff"] as const) expect(labels(role)).not.toContain("Audit");
  });

  it("hides Order History from Telecallers only", () => {
    expect(labels("Telecaller")).not.toContain("Order History");
    for (const role of ["Admin", "Manager", "Team", "Night Staff"] as const) expect(labels(role)).toContain("Order History");
  });

  it("shows no role-limited entry to someone whose role is unknown", () => {
    expect(labels(undefined)).toEqual(MENU_ENTRIES.filter((entry) => !entry.roles).map((entry) => entry.label));
  });

  it("puts a count on every folder entry, none on reports and settings", () => {
    const counted = MENU_ENTRIES.filter((entry) => entry.count).map((entry) => entry.label);
    expect(counted).toEqual(["Awaiting Customer", "Awaiting Govt", "Future Orders", "Contact Customer", "Customer Called", "Deleted Order", "Order History", "Refunds", "Chargeback"]);
  });

  it("has the five dashboard tiles with their folders and counts", () => {
    expect(DASHBOARD_TILES.map((tile) => [tile.label, tile.to, tile.count])).toEqual([
      ["My Orders", "/admin/my-order", "myOrdersCount"],
      ["New Orders", "/admin/recent-order", "newOrdersCount"],
      ["Priority Orders", "/admin/priority-order", "priorityOrdersCount"],
      ["Pending Orders", "/admin/pending-order", "pendingOrdersCount"],
      ["Completed Orders", "/admin/completed-order", "completedOrdersCount"],
    ]);
  });
});
