import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { Link, useNavigate } from "@tanstack/react-router";
import { isAllowed, ORDER_PROCESSED_COLUMNS, type ProcessedOrderRow } from "@etd/contract";
import { QUEUES } from "@etd/contract/endpoints";
import { useAtomValue } from "jotai";
import { ExportCsvLink } from "../../../components/ui/export-link.tsx";
import { queryKeys } from "../../../lib/query-keys.ts";
import { sessionAtom } from "../../../lib/session.ts";
import { processedOrdersQuery } from "../utils/queue-queries.ts";
import { QUEUE_PAGE_SIZES, type QueueSearch } from "../queue-search.ts";
import { QueueTable, type QueueKeyboard, type QueueTableFeatures } from "./queue-table.tsx";
import type { QueueNavigate } from "./queue-screen.tsx";

/** A line of the Order Processed list (ADMIN-7): who uploaded the order's document last, and when. */
type ProcessedOrder = ProcessedOrderRow;

const helper = createColumnHelper<QueueTableFeatures, ProcessedOrder>();

/** "Processed At" → "processedAt": a column's id from its header. */
const idOf = (header: string) => header.toLowerCase().replace(/ (\w)/g, (_, letter: string) => letter.toUpperCase());

/**
 * ADMIN-7's columns: no personal data in the list; View opens the rest. Headers and cell text are
 * the contract's list, which the CSV export writes too (issue 16 D), so the file holds what the
 * table shows.
 */
const COLUMNS = [
  ...ORDER_PROCESSED_COLUMNS.map((column) =>
    helper.display({ id: idOf(column.header), header: column.header, cell: ({ row }) => column.cell(row.original, row.index) }),
  ),
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
  const rows = answer?.status === 1 ? (answer.data?.list ?? NO_ROWS) : NO_ROWS;
  const goTo = useNavigate();
  const session = useAtomValue(sessionAtom);
  // By keyboard too (issue 16 C): move and open; nothing here is selected or assigned.
  const keyboard: QueueKeyboard<ProcessedOrder> = {
    describe: (row) => `order ${row.order_id}, processed by ${row.processed_by}`,
    canOpen: () => true,
    open: (row) => void goTo({ to: "/admin/view-order/$orderId", params: { orderId: row.order_id } }),
    whyNotOpen: () => "",
  };
  return (
    <>
      {/* 001 §2's Processed By report (counts per staff member) sits beside the list it sums up, for the same roles. */}
      {session && isAllowed(session.role, "orders.processed") ? (
        <p className="screen-links">
          <Link to="/admin/processed-by">Processed By report: orders per staff member</Link>
        </p>
      ) : null}
      <QueueTable
      title="Order Processed"
      // Issue 16 D: the whole list as CSV (the list has no day range on screen, so none is sent).
      headerActions={<ExportCsvLink endpoint={QUEUES.exportReport} query={{ report: "order-processed" }} />}
      // Every page of the list, and the reports beside it: they read the same read model.
      onRefresh={() => void queryClient.invalidateQueries({ queryKey: queryKeys.reports })}
      isRefreshing={query.isFetching}
      columns={COLUMNS}
      rows={rows}
      getRowId={rowIdOf}
      paging="server"
      page={search.page}
      size={search.size}
      sizes={QUEUE_PAGE_SIZES}
      total={answer?.status === 1 ? (answer.data?.total ?? rows.length) : 0}
      onPageChange={(page) => navigate({ ...search, page })}
      onSizeChange={(size) => navigate({ ...search, size, page: 1 })}
      isLoading={answer === undefined}
      refusal={answer !== undefined && answer.status !== 1 ? answer.message : undefined}
      keyboard={keyboard}
      />
    </>
  );
};
