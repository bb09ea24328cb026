import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { Link, useNavigate } from "@tanstack/react-router";
import { queryKeys } from "../../../lib/query-keys.ts";
import { processedOrdersQuery, type ProcessedOrder } from "../api/get-processed-orders.ts";
import { formatDateTime, formatDay, processingModeLabel, statusLabel } from "../processed-order-display.ts";
import { QUEUE_PAGE_SIZES, type QueueSearch } from "../queue-search.ts";
import { QueueTable, type QueueKeyboard, type QueueTableFeatures } from "./queue-table.tsx";
import type { QueueNavigate } from "./queue-screen.tsx";

const helper = createColumnHelper<QueueTableFeatures, ProcessedOrder>();

/** ADMIN-7's columns: no personal data in the list; View opens the rest. */
const COLUMNS = [
  helper.accessor("order_id", { id: "orderId", header: "Order Id" }),
  helper.accessor("processed_by", { id: "processedBy", header: "Processed By" }),
  helper.accessor("processed_at", { id: "processedAt", header: "Processed At", cell: (info) => formatDateTime(info.getValue()) }),
  helper.accessor("status", { id: "status", header: "Status", cell: (info) => statusLabel(info.getValue()) }),
  helper.accessor("processing_mode", { id: "processingMode", header: "Processing Mode", cell: (info) => processingModeLabel(info.getValue()) }),
  helper.accessor("processing_date", { id: "processingDate", header: "Processing Date", cell: (info) => formatDay(info.getValue()) }),
  helper.accessor("citizenship", { id: "citizenship", header: "Citizenship" }),
  helper.display({
    id: "action",
    header: "Action",
    cell: ({ row }) => (
      <Link to="/admin/view-order/$orderId" params={{ orderId: row.original.order_id }} aria-label={`View order ${row.original.order_id}`}>
        View
      </Link>
    ),
  }),
];

const NO_ROWS: readonly ProcessedOrder[] = [];
const rowIdOf = (row: ProcessedOrder) => row.order_id;

/** Order Processed (ADMIN-7, Admin only: the server refuses others, and the refusal is shown). */
export const ProcessedOrdersScreen = ({ search, navigate }: { search: QueueSearch; navigate: QueueNavigate }) => {
  const queryClient = useQueryClient();
  const query = useQuery({ ...processedOrdersQuery(search.page, search.size), placeholderData: keepPreviousData });
  const answer = query.data;
  const goTo = useNavigate();
  // By keyboard too (issue 16 C): move and open; nothing here is selected or assigned.
  const keyboard: QueueKeyboard<ProcessedOrder> = {
    describe: (row) => `order ${row.order_id}, processed by ${row.processed_by}`,
    canOpen: () => true,
    open: (row) => void goTo({ to: "/admin/view-order/$orderId", params: { orderId: row.order_id } }),
    whyNotOpen: () => "",
  };
  return (
    <>
      {/* 001 §2's Processed By report (counts per staff member) sits beside the list it sums up. */}
      <p className="screen-links">
        <Link to="/admin/processed-by">Processed By report: orders per staff member</Link>
      </p>
      <QueueTable
      title="Order Processed"
      onRefresh={() => void queryClient.invalidateQueries({ queryKey: [...queryKeys.reports, "processed-orders"] })}
      isRefreshing={query.isFetching}
      columns={COLUMNS}
      rows={answer?.ok ? answer.rows : NO_ROWS}
      getRowId={rowIdOf}
      paging="server"
      page={search.page}
      size={search.size}
      sizes={QUEUE_PAGE_SIZES}
      total={answer?.ok ? answer.total : 0}
      onPageChange={(page) => navigate({ ...search, page })}
      onSizeChange={(size) => navigate({ ...search, size, page: 1 })}
      isLoading={answer === undefined}
      refusal={answer?.ok === false ? answer.message : undefined}
      keyboard={keyboard}
      />
    </>
  );
};
