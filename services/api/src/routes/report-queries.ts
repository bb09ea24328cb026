import { DEFAULT_PAGE_SIZE } from "@etd/contract";
import { dayOf, pageSizeOf } from "@etd/contract/requests";
import { countryOrders, processedBy, processedOrders } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers } from "../http/endpoint.ts";
import { utcDay } from "../http/fields.ts";
import { ok } from "../http/reply.ts";

/*
 * The reports (ADMIN-4, ADMIN-5) and the Order Processed list (ADMIN-7), read from the reports
 * projection. Dates are UTC calendar days, YYYY-MM-DD, both ends included; an empty, null or
 * missing date leaves that side of the range open (001 §7: the processed-by dates "may be empty").
 * The Order Processed list has no call in the specs; its path and paging are ours. It reads only
 * the parameters it names: clients add others (delay, userName) to every list call.
 */

export const reportQueryHandlers = (deps: ApiDeps) =>
  ({
    getCountryOrders: async ({ input }) => {
      const rows = await countryOrders(deps.readDb.query, {
        fromDate: dayOf(input.fromDate),
        toDate: dayOf(input.toDate),
        today: utcDay(deps.now()),
      });
      return ok("Country orders loaded.", rows);
    },
    getProcessedByCount: async ({ input }) => {
      const rows = await processedBy(deps.readDb.query, { fromDate: dayOf(input.fromDate), toDate: dayOf(input.toDate) });
      // 001 §8: the client shows this message as a toast on every load.
      return ok("Processed orders loaded.", rows);
    },
    getProcessedOrders: async ({ input }) => {
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
  }) satisfies Partial<Handlers>;
