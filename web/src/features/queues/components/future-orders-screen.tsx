import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useCallback, useMemo } from "react";
import { Button } from "react-aria-components";
import type { FutureMonthTile } from "@etd/contract";
import { QUEUES } from "@etd/contract/endpoints";
import { ExportCsvLink } from "../../../components/ui/export-link.tsx";
import { queryKeys } from "../../../lib/query-keys.ts";
import { sessionAtom } from "../../../lib/session.ts";
import { futureMonthsQuery, queuePageQuery, type QueueRow } from "../utils/queue-queries.ts";
import { describeOrder } from "../order-words.ts";
import { FUTURE_PAGE_SIZES, type FutureSearch } from "../queue-search.ts";
import { futureDeleteFor } from "../queue-screens.ts";
import { BulkActionButtons, BulkActionConfirm, bulkSelectionOf, selectedIdsOf, useBulkActions } from "./bulk-actions.tsx";
import { futureColumns } from "./queue-columns.tsx";
import { QueueTable, type QueueKeyboard } from "./queue-table.tsx";

/*
 * Future Orders (ADMIN-3, 001 §2): first a calendar of twelve month tiles with the number of
 * orders due in each; a tile opens that month's table, with Back to the calendar. The month is in
 * the URL (`?month=2025-04`) so Back, reload and the browser's own back button agree.
 */

export type FutureNavigate = (next: FutureSearch, options?: { replace?: boolean }) => void;

const NO_ROWS: readonly QueueRow[] = [];
const rowIdOf = (row: QueueRow) => row.id;

/** "2025-04" → "April 2025", from the tile the server named. */
const monthTitle = (months: readonly FutureMonthTile[] | undefined, processMonth: string): string => {
  const tile = months?.find((m) => m.processMonth === processMonth);
  return tile ? `${tile.name} ${processMonth.slice(0, 4)}` : processMonth;
};

export const FutureOrdersScreen = ({ search, navigate }: { search: FutureSearch; navigate: FutureNavigate }) =>
  search.month === undefined ? <MonthTiles /> : <MonthTable search={search} month={search.month} navigate={navigate} />;

const MonthTiles = () => {
  const queryClient = useQueryClient();
  const months = futureMonthsQuery();
  const query = useQuery(months);
  const answer = query.data;
  return (
    <section className="page queue-page" aria-labelledby="future-orders-heading">
      <div className="page-header">
        <h1 id="future-orders-heading" className="page-title">
          Future Orders
        </h1>
        <Button
          className="button"
          isDisabled={query.isFetching}
          onPress={() => void queryClient.invalidateQueries({ queryKey: months.queryKey })}
        >
          Refresh
        </Button>
      </div>
      {answer === undefined ? (
        <p role="status">Loading…</p>
      ) : answer.status !== 1 ? (
        <p role="alert" className="queue-refusal">
          {answer.message}
        </p>
      ) : (
        <ul className="future-months" aria-label="Months">
          {(answer.data ?? []).map((tile) => (
            <li key={tile.processMonth}>
              <Link to="/admin/future-order" search={{ month: tile.processMonth }} className="future-month" data-month={tile.processMonth}>
                <span className="future-month-name">{tile.name}</span>
                <span className="future-month-year">{tile.processMonth.slice(0, 4)}</span>
                <span className="future-month-count" data-count={`future-${tile.processMonth}`}>
                  {tile.count}
                </span>
                <span className="visually-hidden">{tile.count === 1 ? " order" : " orders"}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};

const MonthTable = ({ search, month, navigate }: { search: FutureSearch; month: string; navigate: FutureNavigate }) => {
  const session = useAtomValue(sessionAtom);
  const queryClient = useQueryClient();
  const userName = session?.name ?? "";
  // The whole month at once: its total is the length of the loaded list (QUEUE-7), and the
  // table sorts and pages it in the browser.
  const query = useQuery({
    ...queuePageQuery("futureOrder", { page: 1, size: "All", search: search.search, processMonth: month }, userName),
    placeholderData: keepPreviousData,
  });
  const months = useQuery(futureMonthsQuery()).data;
  const answer = query.data;
  const rows = answer?.ok ? answer.page.rows : NO_ROWS;

  const canDelete = futureDeleteFor(session?.role);
  const bulk = useBulkActions(`${month}|${search.page}|${search.size}|${search.search}`, userName);
  const { ask } = bulk;
  const askToDelete = useCallback((row: QueueRow) => ask({ action: "delete", orderIds: [row.id] }), [ask]);
  const columns = useMemo(() => futureColumns({ canOpen: () => true, onDelete: canDelete ? askToDelete : undefined }), [canDelete, askToDelete]);
  const selectedIds = selectedIdsOf(rows, rowIdOf, bulk.selected);
  const goTo = useNavigate();
  // The month's orders are nobody's yet: each opens (ADMIN-3), and Assign to me is not offered here.
  const keyboard: QueueKeyboard<QueueRow> = {
    describe: describeOrder,
    canOpen: () => true,
    open: (row) => void goTo({ to: "/admin/view-order/$orderId", params: { orderId: row.id } }),
    whyNotOpen: () => "",
  };

  return (
    <>
      <QueueTable
        title={`Future Orders: ${monthTitle(months?.status === 1 ? (months.data ?? undefined) : undefined, month)}`}
        headerActions={
          <>
            <Button className="button" onPress={() => navigate({ page: 1, size: search.size, search: "" })}>
              Back
            </Button>
            <ExportCsvLink endpoint={QUEUES.exportOrders} query={{ folderName: "futureOrder", processMonth: month, searchVal: search.search }} />
          </>
        }
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: queryKeys.queue })}
        isRefreshing={query.isFetching}
        search={{ value: search.search, onSearch: (text) => navigate({ ...search, search: text, page: 1 }, { replace: true }) }}
        actions={
          canDelete ? <BulkActionButtons actions={["delete"]} selection={bulkSelectionOf(undefined, selectedIds)} busy={bulk.busy} onAction={bulk.request} /> : undefined
        }
        columns={columns}
        rows={rows}
        getRowId={rowIdOf}
        paging="client"
        page={search.page}
        size={search.size}
        sizes={FUTURE_PAGE_SIZES}
        onPageChange={(page) => navigate({ ...search, page })}
        onSizeChange={(size) => navigate({ ...search, size, page: 1 })}
        selection={{ selected: bulk.selected, onChange: bulk.setSelected }}
        isLoading={answer === undefined}
        refusal={answer?.ok === false ? answer.message : undefined}
        keyboard={keyboard}
      />
      <BulkActionConfirm pending={bulk.pending} busy={bulk.busy} onConfirm={bulk.confirm} onCancel={bulk.cancel} />
    </>
  );
};
