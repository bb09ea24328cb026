import type {
  CountryOrdersRow,
  FutureMonthTile,
  PaymentGatewayRow,
  ProcessedByRow,
  ProcessedOrdersPage,
  SelectedOrder,
} from "../answers.ts";
import type { QueueListRow } from "../queue-columns.ts";
import { EXPORT_RUNNING, TOO_MANY_SELECTED_MESSAGE, type FolderCounts } from "../queues.ts";
import { answer, endpoints } from "./declare.ts";

const NO_SUCH_LIST = "There is no order list by that name";
const CSV = "text/csv; charset=utf-8";

/**
 * The queues (QUEUE-1..7), the folder counts (SHELL-5) and the future-orders calendar (ADMIN-3);
 * the reports (ADMIN-4, ADMIN-5) and the Order Processed list (ADMIN-7); their CSV exports
 * (issue 16 D); and the payment gateways (ADMIN-2).
 *
 * A queue list and a search answer the rows as `data` and, beside it, `total` (and the list its
 * `page` and `limit`; the search its `start` and `end`): the envelope's extra keys, which the
 * client reads there.
 */
export const QUEUES = endpoints({
  getFolderCounts: {
    method: "get",
    path: "/admin/get-all-folder-count",
    guard: "orders.read",
    reads: ["queue"],
    summary: "The counts object of every folder; My Orders counts the signed-in member's orders (SHELL-5)",
    query: "FolderCountQuery",
    data: answer<FolderCounts>(),
  },
  getOrdersList: {
    method: "get",
    path: "/admin/get-orders-list/:orderName",
    guard: "orders.read",
    reads: ["queue"],
    summary: "One page of a queue, newest first, with the folder's total; allOrder needs Order History (QUEUE-5, QUEUE-7)",
    params: "OrderListParam",
    query: "OrdersListQuery",
    data: answer<readonly QueueListRow[]>(),
    answers: { 404: NO_SUCH_LIST },
  },
  searchOrders: {
    method: "post",
    readOnly: true,
    path: "/admin/search-order",
    guard: "orders.read",
    reads: ["queue"],
    summary: "Search one folder by order id, name, e-mail or phone, any case, any part (QUEUE-5)",
    body: "SearchOrderRequest",
    data: answer<readonly QueueListRow[]>(),
    answers: { 404: NO_SUCH_LIST },
  },
  selectAllOrders: {
    method: "post",
    readOnly: true,
    path: "/admin/select-all-orders",
    guard: "orders.read",
    reads: ["queue"],
    summary: "Select all across pages: every order of a folder or its search, newest first, with the status and assignee a bulk action's asSelected sends back (issue 16)",
    body: "SelectAllOrdersRequest",
    data: answer<readonly SelectedOrder[]>(),
    answers: { 400: TOO_MANY_SELECTED_MESSAGE, 404: NO_SUCH_LIST },
  },
  getFutureMonths: {
    method: "get",
    path: "/admin/get-future-months",
    guard: "orders.read",
    reads: ["queue"],
    summary: "The future-orders calendar: twelve month tiles, January to December, with counts by process month (ADMIN-3)",
    query: "FutureMonthsQuery",
    data: answer<readonly FutureMonthTile[]>(),
  },
  getCountryOrders: {
    method: "post",
    readOnly: true,
    path: "/admin/get-country-order-list",
    guard: "reports.read",
    reads: ["reports"],
    summary: "Orders per country created between two days, with standard, priority and future counts (ADMIN-4)",
    body: "DateRangeRequest",
    data: answer<readonly CountryOrdersRow[]>(),
  },
  getProcessedByCount: {
    method: "post",
    readOnly: true,
    path: "/admin/get-processed-by-count",
    // The counts sum up the Order Processed list (ADMIN-7), which is Admin only (000 §6): so are they.
    guard: "orders.processed",
    reads: ["reports"],
    summary: "Orders per staff member who uploaded their document last, between two days (ADMIN-5)",
    body: "DateRangeRequest",
    data: answer<readonly ProcessedByRow[]>(),
  },
  getProcessedOrders: {
    method: "get",
    path: "/admin/get-processed-orders",
    guard: "orders.processed",
    reads: ["reports"],
    summary: "Order Processed: orders with a document, latest upload first, who processed them and when (ADMIN-7)",
    query: "ProcessedOrdersQuery",
    data: answer<ProcessedOrdersPage>(),
  },
  // The exports are plain links a browser downloads with its own download manager: the session
  // cookie signs them (from this site only), as it does the document links.
  exportOrders: {
    method: "get",
    path: "/admin/export-orders",
    guard: "orders.export",
    reads: ["queue"],
    sessionCookie: true,
    summary: "A queue, or a search within it, as CSV with the screen's columns, streamed; audited as DataExported (issue 16 D)",
    query: "ExportOrdersQuery",
    file: CSV,
    answers: { 404: "There is no order list by that name, or the member's account is gone", 429: EXPORT_RUNNING },
  },
  exportReport: {
    method: "get",
    path: "/admin/export-report",
    guard: "orders.export",
    reads: ["reports"],
    sessionCookie: true,
    summary:
      "A report's table (country-orders ADMIN-4; processed-by ADMIN-5 and order-processed ADMIN-7, Admin only, the latter streamed) for a range of days as CSV; audited as DataExported (issue 16 D)",
    query: "ExportReportQuery",
    file: CSV,
    answers: { 404: "The member's account is gone", 429: EXPORT_RUNNING },
  },
  getPaymentGateways: {
    method: "get",
    path: "/admin/payment-gateways",
    guard: "gateways.manage",
    reads: ["gateways"],
    summary: "The payment gateways, once per customer domain, with the domain's active one marked (ADMIN-2)",
    data: answer<readonly PaymentGatewayRow[]>(),
  },
  setPaymentGateway: {
    method: "post",
    path: "/admin/payment-gateway-setting",
    guard: "gateways.manage",
    summary: "Make a gateway the active one for a customer domain (ADMIN-2)",
    body: "GatewaySettingRequest",
    changes: ["gateways", "order_details"],
    data: answer<{ readonly position: string | null }>(),
    answers: { 404: "The gateway does not exist" },
  },
});
