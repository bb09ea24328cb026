import { DEFAULT_PAGE_SIZE } from "@etd/contract";
import { dayOf, DateRangeRequest, pageSizeOf, ProcessedOrdersQuery } from "@etd/contract/requests";
import { countryOrders, processedBy, processedOrders } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { staffEndpoint, type Endpoint } from "../http/endpoint.ts";
import { utcDay } from "../http/fields.ts";
import { ok } from "../http/reply.ts";

/*
 * The reports (ADMIN-4, ADMIN-5) and the Order Processed list (ADMIN-7), read from the reports
 * projection. Dates are UTC calendar days, YYYY-MM-DD, both ends included; an empty, null or
 * missing date leaves that side of the range open (001 §7: the processed-by dates "may be empty").
 * The Order Processed list has no call in the specs; its path and paging are ours. It reads only
 * the parameters it names: clients add others (delay, userName) to every list call.
 */

export const reportQueryEndpoints = (deps: ApiDeps): Endpoint[] => [
  staffEndpoint({
    method: "post",
    readOnly: true,
    path: "/admin/get-country-order-list",
    guard: "reports.read",
    reads: ["reports"],
    summary: "Orders per country created between two days, with standard, priority and future counts (ADMIN-4)",
    body: DateRangeRequest,
    handle: async ({ input }) => {
      const rows = await countryOrders(deps.readDb.query, {
        fromDate: dayOf(input.fromDate),
        toDate: dayOf(input.toDate),
        today: utcDay(deps.now()),
      });
      return ok("Country orders loaded.", rows);
    },
  }),
  staffEndpoint({
    method: "post",
    readOnly: true,
    path: "/admin/get-processed-by-count",
    // The counts sum up the Order Processed list (ADMIN-7), which is Admin only (000 §6): so are they.
    guard: "orders.processed",
    reads: ["reports"],
    summary: "Orders per staff member who uploaded their document last, between two days (ADMIN-5)",
    body: DateRangeRequest,
    handle: async ({ input }) => {
      const rows = await processedBy(deps.readDb.query, { fromDate: dayOf(input.fromDate), toDate: dayOf(input.toDate) });
      // 001 §8: the client shows this message as a toast on every load.
      return ok("Processed orders loaded.", rows);
    },
  }),
  staffEndpoint({
    method: "get",
    path: "/admin/get-processed-orders",
    guard: "orders.processed",
    reads: ["reports"],
    summary: "Order Processed: orders with a document, latest upload first, who processed them and when (ADMIN-7)",
    query: ProcessedOrdersQuery,
    handle: async ({ input }) => {
      const { page, limit, fromDate, toDate } = input;
      const result = await processedOrders(deps.readDb.query, {
        page: page === undefined ? 1 : Number(page),
        limit: pageSizeOf(limit, DEFAULT_PAGE_SIZE),
        fromDate: dayOf(fromDate),
        toDate: dayOf(toDate),
      });
      return ok("Processed orders loaded.", {
        list: result.rows,
        total: result.total,
        page: result.page,
        limit: result.limit,
      });
    },
  }),
];
