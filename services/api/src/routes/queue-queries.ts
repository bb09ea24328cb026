import { DEFAULT_PAGE_SIZE, DUE_FILTERS, isAllowed, MAX_SELECTED_ORDERS, QUEUE_KEYS, QUEUE_SORTS, TOO_MANY_SELECTED_MESSAGE, type QueueKey } from "@etd/contract";
import { pageSizeOf } from "@etd/contract/requests";
import { folderCounts, futureMonths, ordersList, queueKeyOf, searchOrders, selectOrders } from "@etd/projections";
import type { SessionUser } from "../auth/tokens.ts";
import type { ApiDeps } from "../api-deps.ts";
import { FORBIDDEN, type Handlers } from "../http/endpoint.ts";
import { utcDay } from "../http/fields.ts";
import { fail, ok } from "../http/reply.ts";

/*
 * The queues (QUEUE-1..7), the folder counts (SHELL-5) and the future-orders calendar (ADMIN-3),
 * read from the queue projection. "Today" is the server's day in UTC, never the client's.
 *
 * Decisions where the specs are silent:
 * - My Orders is the signed-in member's, by id: `userName` is accepted and ignored, so nobody
 *   reads another member's queue by changing a query parameter, and a rename loses nothing.
 * - Order History (allOrder) needs orders.history, checked per request, in lists and in search
 *   alike: Telecallers get 403 for it and can read every other folder.
 * - A list answers `data` = the rows, as the client reads them, plus `total`, `page` and `limit`
 *   beside it, so pagination needs no second call. The total is the folder's count (QUEUE-7).
 * - The search window: `start` is the first row (from 0) and `end` the row after the last, so
 *   page 2 of 10 is {start: 10, end: 20}. A client that sends a page size as `end` instead
 *   ({start: 10, end: 10}) is understood too: an `end` not after `start` is read as a count.
 *   Without `end` a window is 10 rows; "All" is every row from `start`.
 * - Due (issue 27): `due` (overdue, within-hour) keeps the orders whose clock is due by now, or
 *   due within the next hour, by the server's clock, and the total counts them; `sort=due` lists
 *   the most urgent first. Both optional: without them the lists answer as before. A search takes
 *   both, select all the filter, so "all" is what the filtered list shows.
 * - Unknown query parameters are ignored (clients add cache busters); a known one must be valid
 *   (the endpoint layer reads only the parameters a query schema names).
 */

const unknownFolder = (name: string) =>
  fail(404, `There is no order list named ${JSON.stringify(name.slice(0, 60))}. The lists are: ${QUEUE_KEYS.join(", ")}.`);

/** Order History is hidden from Telecallers (SHELL-1); every other folder is open to every role. */
const mayRead = (user: SessionUser, key: QueueKey) => key !== "allOrder" || isAllowed(user.type, "orders.history");

/** The rows a search answers (see above), as the first row and the row after the last. */
export const searchWindow = (start: number, end: number | "All" | undefined): { start: number; end: number | "All" } => {
  if (end === undefined) return { start, end: start + DEFAULT_PAGE_SIZE };
  if (end === "All" || end > start) return { start, end };
  return { start, end: start + end };
};

const viewerOf = (deps: ApiDeps, user: SessionUser) => ({ today: utcDay(deps.now()), staffId: user.id });

/** The decoded `due` and `sort` (the edge checked they are among these words), with the moment the filter counts from. */
const dueOptionsOf = (deps: ApiDeps, input: { readonly due?: string; readonly sort?: string }) => {
  const due = DUE_FILTERS.find((filter) => filter === input.due);
  const sort = QUEUE_SORTS.find((order) => order === input.sort);
  return { ...(due === undefined ? {} : { due, now: deps.now() }), ...(sort === undefined ? {} : { sort }) };
};

export const queueQueryHandlers = (deps: ApiDeps) =>
  ({
    getFolderCounts: async ({ user }) => ok("Folder counts loaded.", await folderCounts(deps.readDb.query, viewerOf(deps, user))),
    getOrdersList: async ({ params, user, input }) => {
      const name = params.orderName;
      const key = queueKeyOf(name);
      if (key === undefined) return unknownFolder(name);
      if (!mayRead(user, key)) return fail(403, FORBIDDEN);
      const { page, limit, perPage, processMonth } = input;
      const result = await ordersList(deps.readDb.query, {
        queueKey: key,
        page: page === undefined ? 1 : Number(page),
        limit: pageSizeOf(limit ?? perPage, DEFAULT_PAGE_SIZE),
        ...viewerOf(deps, user),
        ...(key === "futureOrder" && processMonth !== undefined ? { processMonth } : {}),
        ...dueOptionsOf(deps, input),
      });
      return ok("Orders loaded.", result.rows, { total: result.total, page: result.page, limit: result.limit });
    },
    searchOrders: async ({ user, input }) => {
      const key = queueKeyOf(input.folderName);
      if (key === undefined) return unknownFolder(input.folderName);
      if (!mayRead(user, key)) return fail(403, FORBIDDEN);
      const window = searchWindow(
        input.start === undefined ? 0 : Number(input.start),
        input.end === undefined ? undefined : /all/i.test(String(input.end)) ? "All" : Number(input.end),
      );
      const result = await searchOrders(deps.readDb.query, {
        folderName: key,
        searchVal: input.searchVal === undefined || input.searchVal === null ? "" : String(input.searchVal),
        ...window,
        ...viewerOf(deps, user),
        ...(key === "futureOrder" && input.processMonth !== undefined ? { processMonth: input.processMonth } : {}),
        ...dueOptionsOf(deps, input),
      });
      return ok("Orders loaded.", result.rows, { total: result.total, ...window });
    },
    selectAllOrders: async ({ user, input }) => {
      const key = queueKeyOf(input.folderName);
      if (key === undefined) return unknownFolder(input.folderName);
      if (!mayRead(user, key)) return fail(403, FORBIDDEN);
      // One row more than may be selected: reading it tells "too many" from "exactly the most".
      const rows = await selectOrders(deps.readDb.query, {
        folderName: key,
        searchVal: input.searchVal === undefined || input.searchVal === null ? "" : String(input.searchVal),
        limit: MAX_SELECTED_ORDERS + 1,
        ...viewerOf(deps, user),
        ...(key === "futureOrder" && input.processMonth !== undefined ? { processMonth: input.processMonth } : {}),
        ...dueOptionsOf(deps, input),
      });
      if (rows.length > MAX_SELECTED_ORDERS) return fail(400, TOO_MANY_SELECTED_MESSAGE);
      return ok("Orders selected.", rows, { total: rows.length });
    },
    getFutureMonths: async ({ input }) => {
      const year = input.year === undefined ? undefined : Number(input.year);
      return ok("Future months loaded.", await futureMonths(deps.readDb.query, { today: utcDay(deps.now()), year }));
    },
  }) satisfies Partial<Handlers>;
