import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useCallback, useEffect, useMemo } from "react";
import { DUE_FOLDERS, isAllowed, type QueueKey } from "@etd/contract";
import { QUEUES } from "@etd/contract/endpoints";
import { ExportCsvLink } from "../../../components/ui/export-link.tsx";
import { announce } from "../../../components/ui/live-region.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi, readYourWritesOf } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { sessionAtom } from "../../../lib/session.ts";
import { queuePageQuery, type QueueRow } from "../utils/queue-queries.ts";
import { describeOrder } from "../order-words.ts";
import { pageCount } from "../../../lib/page-count.ts";
import { QUEUE_PAGE_SIZES, type QueueSearch } from "../queue-search.ts";
import { bulkActionsFor, canOpenOrder, rowDeleteFor, type QueueScreen } from "../queue-screens.ts";
import { BulkActionButtons, BulkActionConfirm, bulkSelectionOf, SelectAllBar, selectedIdsOf, useBulkActions, type PendingAction } from "./bulk-actions.tsx";
import { DueFilters } from "./due.tsx";
import { queueColumns } from "./queue-columns.tsx";
import { QueueTable, type QueueKeyboard } from "./queue-table.tsx";
import { TakeNextButton, useTakeNext } from "./take-next.tsx";

const NO_ROWS: readonly QueueRow[] = [];
/** Where Take next is offered (issue 27): the folders it takes from, and the member's own list it adds to. */
const TAKE_NEXT_FOLDERS: readonly QueueKey[] = ["newOrder", "priorityOrder", "myOrder"];
const rowIdOf = (row: QueueRow) => row.id;

/** Where a queue screen may send its URL: the next search, replacing the history entry or not. */
export type QueueNavigate = (next: QueueSearch, options?: { replace?: boolean }) => void;

/**
 * One queue screen (QUEUE-1..12): the folder's page as the URL asks for it, with the actions the
 * signed-in role is offered there. What the table shows is always the server's latest answer.
 * Issue 16: worked by keyboard, select all across pages, Export CSV of the current search.
 */
export const QueueScreenView = ({ screen, search, navigate }: { screen: QueueScreen; search: QueueSearch; navigate: QueueNavigate }) => {
  const session = useAtomValue(sessionAtom);
  const queryClient = useQueryClient();
  const goTo = useNavigate();
  const userName = session?.name ?? "";
  const query = useQuery({ ...queuePageQuery(screen.queueKey, search, userName), placeholderData: keepPreviousData });
  const answer = query.data;
  const rows = answer?.ok ? answer.page.rows : NO_ROWS;
  const total = answer?.ok ? answer.page.total : 0;
  const pages = pageCount(total, search.size);

  const openOrder = useCallback((orderId: string) => void goTo({ to: "/admin/view-order/$orderId", params: { orderId } }), [goTo]);
  // Claim-and-open (issue 16 C): the order opens once the server says the claim succeeded.
  const afterCommand = (action: PendingAction, result: { status: number }) => {
    if (action.openAfter && result.status === 1 && action.orderIds[0] !== undefined) openOrder(action.orderIds[0]);
  };
  const bulk = useBulkActions(`${screen.queueKey}|${search.page}|${search.size}|${search.search}|${search.due ?? ""}|${search.sort ?? ""}`, userName, afterCommand);
  const actions = bulkActionsFor(screen, session?.role);
  const canDeleteRows = rowDeleteFor(screen, session?.role);
  const { ask } = bulk;
  const askToDelete = useCallback((row: QueueRow) => ask({ action: "delete", orderIds: [row.id] }), [ask]);

  const offersTakeNext = TAKE_NEXT_FOLDERS.includes(screen.queueKey) && session !== undefined && isAllowed(session.role, "order.assign");
  const takeNext = useTakeNext(openOrder);

  const viewerId = session?.id;
  const canOpen = useCallback((row: QueueRow) => canOpenOrder(screen, row.assign_to_id, viewerId), [screen, viewerId]);
  const columns = useMemo(() => queueColumns(screen.columns, { canOpen, onDelete: canDeleteRows ? askToDelete : undefined }), [screen, canOpen, canDeleteRows, askToDelete]);
  // Issue 27: where the Due column shows, it sorts (on the server) and filters.
  const showsDue = DUE_FOLDERS.includes(screen.queueKey);

  // The last page emptied (its rows were deleted or assigned): show the new last page instead.
  const settled = answer?.ok === true && !query.isPlaceholderData;
  useEffect(() => {
    if (settled && rows.length === 0 && pages > 0 && search.page > pages) navigate({ ...search, page: pages }, { replace: true });
  }, [settled, rows.length, pages, search, navigate]);

  const selectedIds = selectedIdsOf(rows, rowIdOf, bulk.selected);
  const selection = bulkSelectionOf(bulk.all, selectedIds);

  // Select all across pages (issue 16 B): the server lists every matching order as it stands now,
  // with its status and assignee, so the bulk command acts on exactly these and reports any that
  // changed since. It must include what this tab's last command changed, hence the read-after.
  const selectAll = useMutation({
    mutationFn: () => {
      const searchVal = search.search.trim();
      return callApi(
        QUEUES.selectAllOrders,
        { body: { folderName: screen.queueKey, ...(searchVal === "" ? {} : { searchVal }), ...(search.due === undefined ? {} : { due: search.due }) } },
        { readAfter: readYourWritesOf(queryClient).readAfter(QUEUES.selectAllOrders.reads) },
      );
    },
    onSuccess: (result) => {
      // A refusal: over 5,000 orders, or the folder is not this role's.
      if (result.status !== 1) {
        toast.error(result.message);
        return announce(result.message);
      }
      const orders = result.data ?? [];
      bulk.selectAll(orders);
      announce(`All ${orders.length} orders are selected.`);
    },
  });

  const keyboard: QueueKeyboard<QueueRow> = {
    describe: describeOrder,
    canOpen,
    open: (row) => openOrder(row.id),
    whyNotOpen: (row) => `Order ${row.id} is assigned to ${row.assign_to}; it cannot be opened from this list.`,
    assign: actions.includes("assign")
      ? (current) => {
          if (selection.orderIds.length > 0) return bulk.request({ action: "assign", orderIds: selection.orderIds, asSelected: selection.asSelected });
          if (!current) return announce("No order is current. Press j or k to choose one.");
          bulk.request({ action: "assign", orderIds: [current.id], openAfter: true });
        }
      : undefined,
    takeNext: offersTakeNext ? takeNext.take : undefined,
  };

  return (
    <>
      <QueueTable
        title={screen.title}
        headerActions={
          <>
            {offersTakeNext ? <TakeNextButton takeNext={takeNext} /> : null}
            <ExportCsvLink endpoint={QUEUES.exportOrders} query={{ folderName: screen.queueKey, searchVal: search.search }} />
          </>
        }
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: queryKeys.queue })}
        isRefreshing={query.isFetching}
        search={{ value: search.search, onSearch: (text) => navigate({ ...search, search: text, page: 1 }, { replace: true }) }}
        filters={showsDue ? <DueFilters value={search.due} onChange={(due) => navigate({ ...search, due, page: 1 })} /> : undefined}
        serverSort={
          showsDue ? { columnId: "due", sorted: search.sort === "due", onToggle: () => navigate({ ...search, sort: search.sort === "due" ? undefined : "due", page: 1 }) } : undefined
        }
        actions={actions.length > 0 ? <BulkActionButtons actions={actions} selection={selection} busy={bulk.busy} onAction={bulk.request} /> : undefined}
        notice={
          actions.length > 0 ? (
            <SelectAllBar
              pageRows={rows.length}
              allPageSelected={rows.length > 0 && selectedIds.length === rows.length}
              total={total}
              folder={screen.title}
              search={search.search}
              allSelected={bulk.all?.length}
              busy={selectAll.isPending}
              onSelectAll={() => selectAll.mutate()}
              onClear={() => {
                bulk.clearAll();
                announce("Selection cleared.");
              }}
            />
          ) : undefined
        }
        columns={columns}
        rows={rows}
        getRowId={rowIdOf}
        paging="server"
        page={search.page}
        size={search.size}
        sizes={QUEUE_PAGE_SIZES}
        total={total}
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
