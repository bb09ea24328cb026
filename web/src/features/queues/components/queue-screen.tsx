import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { useCallback, useEffect, useMemo } from "react";
import { queryKeys } from "../../../lib/query-keys.ts";
import { sessionAtom } from "../../../lib/session.ts";
import { queuePageQuery } from "../api/queue-page-query.ts";
import type { QueueRow } from "../api/queue-row.ts";
import { selectedIdsOf, useBulkActions } from "../hooks/use-bulk-actions.ts";
import { pageCount } from "../pagination-range.ts";
import { QUEUE_PAGE_SIZES, type QueueSearch } from "../queue-search.ts";
import { bulkActionsFor, canOpenOrder, rowDeleteFor, type QueueScreen } from "../queue-screens.ts";
import { BulkActionButtons, BulkActionConfirm } from "./bulk-actions.tsx";
import { queueColumns } from "./queue-columns.tsx";
import { QueueTable } from "./queue-table.tsx";

const NO_ROWS: readonly QueueRow[] = [];
const rowIdOf = (row: QueueRow) => row.id;

/** Where a queue screen may send its URL: the next search, replacing the history entry or not. */
export type QueueNavigate = (next: QueueSearch, options?: { replace?: boolean }) => void;

/**
 * One queue screen (QUEUE-1..12): the folder's page as the URL asks for it, with the actions the
 * signed-in role is offered there. What the table shows is always the server's latest answer.
 */
export const QueueScreenView = ({ screen, search, navigate }: { screen: QueueScreen; search: QueueSearch; navigate: QueueNavigate }) => {
  const session = useAtomValue(sessionAtom);
  const queryClient = useQueryClient();
  const userName = session?.name ?? "";
  const query = useQuery({ ...queuePageQuery(screen.queueKey, search, userName), placeholderData: keepPreviousData });
  const answer = query.data;
  const rows = answer?.ok ? answer.page.rows : NO_ROWS;
  const total = answer?.ok ? answer.page.total : 0;
  const pages = pageCount(total, search.size);

  const bulk = useBulkActions(`${screen.queueKey}|${search.page}|${search.size}|${search.search}`, userName);
  const actions = bulkActionsFor(screen, session?.role);
  const canDeleteRows = rowDeleteFor(screen, session?.role);
  const { ask } = bulk;
  const askToDelete = useCallback((row: QueueRow) => ask({ action: "delete", orderIds: [row.id] }), [ask]);

  const viewerId = session?.id;
  const columns = useMemo(
    () =>
      queueColumns(screen.columns, {
        canOpen: (row) => canOpenOrder(screen, row.assign_to_id, viewerId),
        onDelete: canDeleteRows ? askToDelete : undefined,
      }),
    [screen, viewerId, canDeleteRows, askToDelete],
  );

  // The last page emptied (its rows were deleted or assigned): show the new last page instead.
  const settled = answer?.ok === true && !query.isPlaceholderData;
  useEffect(() => {
    if (settled && rows.length === 0 && pages > 0 && search.page > pages) navigate({ ...search, page: pages }, { replace: true });
  }, [settled, rows.length, pages, search, navigate]);

  const selectedIds = selectedIdsOf(rows, rowIdOf, bulk.selected);
  return (
    <>
      <QueueTable
        title={screen.title}
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: queryKeys.queue })}
        isRefreshing={query.isFetching}
        search={{ value: search.search, onSearch: (text) => navigate({ ...search, search: text, page: 1 }, { replace: true }) }}
        actions={
          actions.length > 0 ? <BulkActionButtons actions={actions} selectedIds={selectedIds} busy={bulk.busy} onAction={bulk.request} /> : undefined
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
      />
      <BulkActionConfirm pending={bulk.pending} busy={bulk.busy} onConfirm={bulk.confirm} onCancel={bulk.cancel} />
    </>
  );
};
