import { describe, expect, it } from "vitest";
import { pageCount } from "../src/lib/page-count.ts";
import { paginationRange } from "../src/features/queues/pagination-range.ts";
import { searchWindow, validateFutureSearch, validateQueueSearch } from "../src/features/queues/queue-search.ts";
import { bulkActionsFor, canOpenOrder, futureDeleteFor, QUEUE_SCREENS, rowDeleteFor } from "../src/features/queues/queue-screens.ts";
import { formatDateTime, formatDay, ORDER_PROCESSED_COLUMNS, processingModeLabel, statusLabel } from "@etd/contract";

/* The queue screens' rules that need no browser: paging, the URL, who is offered what. */

const screen = (path: string) => {
  const found = QUEUE_SCREENS.find((s) => s.path === path);
  if (!found) throw new Error(`no screen at ${path}`);
  return found;
};

describe("QUEUE-2 pagination: one sibling each side, ellipses, every page when at most six", () => {
  it("shows every page up to six pages", () => {
    expect(paginationRange(1, 1)).toEqual([1]);
    expect(paginationRange(3, 6)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("shows first and last page, the current page with one sibling each side, and ellipses for the gaps", () => {
    expect(paginationRange(1, 8)).toEqual([1, 2, 3, 4, 5, "end-ellipsis", 8]);
    expect(paginationRange(5, 8)).toEqual([1, "start-ellipsis", 4, 5, 6, "end-ellipsis", 8]);
    expect(paginationRange(8, 8)).toEqual([1, "start-ellipsis", 4, 5, 6, 7, 8]);
    expect(paginationRange(50, 100)).toEqual([1, "start-ellipsis", 49, 50, 51, "end-ellipsis", 100]);
  });

  it("always offers seven items past six pages, so the buttons do not move while paging", () => {
    for (let total = 7; total <= 30; total++) {
      for (let page = 1; page <= total; page++) {
        const items = paginationRange(page, total);
        expect(items).toHaveLength(7);
        expect(items).toContain(page);
        expect(items[0]).toBe(1);
        expect(items[6]).toBe(total);
      }
    }
  });

  it("has no pages for an empty list, and clamps a page past the end", () => {
    expect(paginationRange(1, 0)).toEqual([]);
    expect(paginationRange(99, 8)).toEqual(paginationRange(8, 8));
  });

  it("counts pages from the total and the page size; All is one page", () => {
    expect(pageCount(0, 10)).toBe(0);
    expect(pageCount(75, 10)).toBe(8);
    expect(pageCount(75, 25)).toBe(3);
    expect(pageCount(75, "All")).toBe(1);
  });
});

describe("QUEUE-2 the URL's page, size and search", () => {
  it("defaults to page 1, 10 rows, no search", () => {
    expect(validateQueueSearch({})).toEqual({ page: 1, size: 10, search: "" });
  });

  it("keeps valid values, as strings or numbers", () => {
    expect(validateQueueSearch({ page: "3", size: "25", search: "gmail" })).toEqual({ page: 3, size: 25, search: "gmail" });
    expect(validateQueueSearch({ page: 4, size: 500, search: 63917 })).toEqual({ page: 4, size: 500, search: "63917" });
    expect(validateQueueSearch({ size: "all" }).size).toBe("All");
  });

  it("falls back to the default for anything else", () => {
    expect(validateQueueSearch({ page: "0", size: "7", search: ["x"] })).toEqual({ page: 1, size: 10, search: "" });
    expect(validateQueueSearch({ page: "-2", size: "5" })).toEqual({ page: 1, size: 10, search: "" });
    expect(validateQueueSearch({ search: "x".repeat(300) }).search).toHaveLength(200);
  });

  it("ADMIN-3: the future-order table has its own sizes (5, 10, 20, 50, All) and the open month", () => {
    expect(validateFutureSearch({ size: "5", month: "2025-04" })).toEqual({ page: 1, size: 5, search: "", month: "2025-04" });
    expect(validateFutureSearch({ size: "25", month: "2025-13" })).toEqual({ page: 1, size: 10, search: "" });
  });

  it("QUEUE-5: a search asks for rows start (from 0) to end (exclusive), or every row", () => {
    expect(searchWindow(1, 10)).toEqual({ start: 0, end: 10 });
    expect(searchWindow(3, 25)).toEqual({ start: 50, end: 75 });
    expect(searchWindow(4, "All")).toEqual({ start: 0, end: "All" });
  });
});

describe("000 §6: the bulk actions each role is offered", () => {
  it("QUEUE-9: Assign to me for every role on New and Priority; QUEUE-8: Delete for Admin and Manager there", () => {
    for (const path of ["recent-order", "priority-order"]) {
      expect(bulkActionsFor(screen(path), "Admin")).toEqual(["assign", "delete"]);
      expect(bulkActionsFor(screen(path), "Manager")).toEqual(["assign", "delete"]);
      expect(bulkActionsFor(screen(path), "Team")).toEqual(["assign"]);
      expect(bulkActionsFor(screen(path), "Telecaller")).toEqual(["assign"]);
      expect(bulkActionsFor(screen(path), "Night Staff")).toEqual(["assign"]);
    }
  });

  it("QUEUE-8, QUEUE-10: on My Orders everyone may move back, only an Admin may delete", () => {
    expect(bulkActionsFor(screen("my-order"), "Admin")).toEqual(["moveToOriginal", "delete"]);
    expect(bulkActionsFor(screen("my-order"), "Manager")).toEqual(["moveToOriginal"]);
    expect(rowDeleteFor(screen("my-order"), "Manager")).toBe(false);
    expect(rowDeleteFor(screen("my-order"), "Admin")).toBe(true);
  });

  it("QUEUE-11: Refunded it for every role on the refund table, whose rows have View only", () => {
    expect(bulkActionsFor(screen("refund-order"), "Team")).toEqual(["refunded"]);
    expect(bulkActionsFor(screen("refund-order"), "Manager")).toEqual(["refunded", "delete"]);
    expect(rowDeleteFor(screen("refund-order"), "Admin")).toBe(false);
  });

  it("QUEUE-8: Delete on the default tables for Admin and Manager only; none on Deleted Orders", () => {
    expect(bulkActionsFor(screen("pending-order"), "Manager")).toEqual(["delete"]);
    expect(bulkActionsFor(screen("pending-order"), "Team")).toEqual([]);
    expect(bulkActionsFor(screen("deleted-order"), "Admin")).toEqual([]);
    expect(bulkActionsFor(screen("recent-order"), undefined)).toEqual([]);
  });

  it("ADMIN-3: Delete Order on future orders for Admin and Manager", () => {
    expect(futureDeleteFor("Admin")).toBe(true);
    expect(futureDeleteFor("Manager")).toBe(true);
    expect(futureDeleteFor("Team")).toBe(false);
  });
});

describe("QUEUE-12, ADMIN-7: who may open an order from a list", () => {
  it("on New, Priority and the Chargeback list, only unassigned orders and the viewer's own", () => {
    for (const path of ["recent-order", "priority-order", "chargeback"]) {
      expect(canOpenOrder(screen(path), null, "me")).toBe(true);
      expect(canOpenOrder(screen(path), "me", "me")).toBe(true);
      expect(canOpenOrder(screen(path), "someone-else", "me")).toBe(false);
    }
  });

  it("anywhere else, every order", () => {
    expect(canOpenOrder(screen("pending-order"), "someone-else", "me")).toBe(true);
    expect(canOpenOrder(screen("order-history"), "someone-else", "me")).toBe(true);
  });

  it("QUEUE-1: fourteen folders, each once; the Chargeback list is titled New Order (001 §2)", () => {
    expect(new Set(QUEUE_SCREENS.map((s) => s.queueKey)).size).toBe(QUEUE_SCREENS.length);
    expect(QUEUE_SCREENS).toHaveLength(13); // the fourteenth, Future Orders, has its own screen (ADMIN-3)
    expect(screen("chargeback").title).toBe("New Order");
  });
});

describe("ADMIN-7: the Order Processed list's display values", () => {
  it("shows times as DD/MM/YYYY HH:mm:ss in UTC and statuses as staff read them", () => {
    expect(formatDateTime("2025-04-03T21:05:09.000Z")).toBe("03/04/2025 21:05:09");
    expect(formatDay("2025-04-03")).toBe("03/04/2025");
    expect(statusLabel("AwaitingGovt")).toBe("Awaiting Govt");
    expect(statusLabel("Completed")).toBe("Completed");
    expect(processingModeLabel("standard")).toBe("Standard Processing");
  });

  it("issue 16 D: the table's and the CSV export's columns are one list, Action left out, cells formatted", () => {
    const row = {
      order_id: "300001",
      processed_by_id: "staff-1",
      processed_by: "Carla Reyes",
      processed_at: "2025-04-03T21:05:09.123Z",
      status: "AwaitingGovt",
      processing_mode: "priority",
      processing_date: "2025-04-05",
      citizenship: "Philippines",
      created_at: "2025-04-01T08:00:00.000Z",
    } as const;
    expect(ORDER_PROCESSED_COLUMNS.map((column) => column.header)).toEqual([
      "Order Id",
      "Processed By",
      "Processed At",
      "Status",
      "Processing Mode",
      "Processing Date",
      "Citizenship",
    ]);
    expect(ORDER_PROCESSED_COLUMNS.map((column) => column.cell(row, 0))).toEqual([
      "300001",
      "Carla Reyes",
      "03/04/2025 21:05:09",
      "Awaiting Govt",
      "Priority Processing",
      "05/04/2025",
      "Philippines",
    ]);
  });
});
