import {
  createPaginatedRowModel,
  createSortedRowModel,
  rowPaginationFeature,
  rowSelectionFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_text,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type RowSelectionState,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { useState, type ReactNode } from "react";
import { Button, Checkbox } from "react-aria-components";
import { pageCount } from "../pagination-range.ts";
import type { PageSize } from "../queue-search.ts";
import { Pagination } from "./pagination.tsx";
import { RowsPerPage } from "./rows-per-page.tsx";
import { SearchBox } from "./search-box.tsx";
import "../../../styles/queues.css";

/*
 * The one table every queue shows (QUEUE-2, QUEUE-3, QUEUE-4, ADMIN-3, ADMIN-7): a heading with
 * Refresh, a toolbar with the search box and the bulk actions, row selection, a fixed header
 * over a 550px scrolling body, the empty state, the rows-per-page selector and the pagination.
 *
 * Server paging (the queues): `rows` is one page and `total` the folder's count (QUEUE-7).
 * Client paging (a future-order month, ADMIN-3): `rows` is the whole month; the table sorts and
 * slices it, and the total is the length of the loaded list (QUEUE-7).
 */

export const queueTableFeatures = tableFeatures({
  rowSelectionFeature,
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { text: sortFn_text, alphanumeric: sortFn_alphanumeric },
  rowPaginationFeature,
  paginatedRowModel: createPaginatedRowModel(),
});

export type QueueTableFeatures = typeof queueTableFeatures;

// Column value types vary per column; the table only renders them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type QueueColumn<TData extends RowData> = ColumnDef<QueueTableFeatures, TData, any>;

export interface QueueTableProps<TData extends RowData> {
  /** The page heading (QUEUE-2). */
  readonly title: string;
  /** Next to the heading, before Refresh (e.g. Back on a future-order month). */
  readonly headerActions?: ReactNode;
  readonly onRefresh: () => void;
  readonly isRefreshing: boolean;
  /** The search box and its committed value; no box when absent. */
  readonly search?: { readonly value: string; readonly onSearch: (text: string) => void };
  /** Bulk action buttons for the selected rows. */
  readonly actions?: ReactNode;
  readonly columns: readonly QueueColumn<TData>[];
  readonly rows: readonly TData[];
  readonly getRowId: (row: TData) => string;
  readonly paging: "server" | "client";
  readonly page: number;
  readonly size: PageSize;
  readonly sizes: readonly PageSize[];
  /** The total the pagination counts (server paging); client paging counts `rows`. */
  readonly total?: number;
  readonly onPageChange: (page: number) => void;
  readonly onSizeChange: (size: PageSize) => void;
  /** Row selection with checkboxes; none when absent. */
  readonly selection?: { readonly selected: RowSelectionState; readonly onChange: (next: RowSelectionState) => void };
  /** True before the first answer. */
  readonly isLoading: boolean;
  /** The server's refusal to show the list (e.g. 403 for a Telecaller on Order History). */
  readonly refusal?: string;
}

const EMPTY_SORTING: SortingState = [];
const NO_SELECTION: RowSelectionState = {};

const apply = <T,>(updater: Updater<T>, current: T): T => (typeof updater === "function" ? (updater as (old: T) => T)(current) : updater);

const sortLabel = (direction: false | "asc" | "desc") =>
  direction === "asc" ? "ascending" : direction === "desc" ? "descending" : "none";

/** The drawn box of a react-aria Checkbox (the real input is visually hidden inside it). */
const CheckMark = ({ isSelected, isIndeterminate }: { isSelected: boolean; isIndeterminate: boolean }) => (
  <span className="checkbox-box" aria-hidden="true">
    {isIndeterminate ? "–" : isSelected ? "✓" : ""}
  </span>
);

export const QueueTable = <TData extends RowData>(props: QueueTableProps<TData>) => {
  const { title, columns, rows, paging, page, size, selection } = props;
  const [sorting, setSorting] = useState<SortingState>(EMPTY_SORTING);
  const client = paging === "client";
  const total = client ? rows.length : (props.total ?? rows.length);
  const pages = pageCount(total, size);
  const shownPage = Math.min(Math.max(1, page), Math.max(1, pages));
  const pagination = {
    pageIndex: client ? shownPage - 1 : 0,
    pageSize: size === "All" ? Math.max(1, client ? rows.length : total) : size,
  };

  const table = useTable({
    features: queueTableFeatures,
    columns,
    data: rows,
    getRowId: (row) => props.getRowId(row),
    state: { rowSelection: selection?.selected ?? NO_SELECTION, sorting, pagination },
    onRowSelectionChange: (updater) => selection?.onChange(apply(updater, selection.selected)),
    onSortingChange: (updater) => setSorting((current) => apply(updater, current)),
    enableRowSelection: selection !== undefined,
    enableRowRangeSelection: false,
    enableSorting: client,
    manualSorting: !client,
    manualPagination: !client,
    autoResetPageIndex: false,
    rowCount: total,
  });

  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const shownRows = table.getRowModel().rows;
  const columnCount = headers.length + (selection ? 1 : 0);
  const first = total === 0 ? 0 : size === "All" ? 1 : (shownPage - 1) * size + 1;
  const last = size === "All" ? total : Math.min(total, shownPage * size);
  const headingId = `queue-heading-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

  return (
    <section className="page queue-page" aria-labelledby={headingId}>
      <div className="page-header">
        <h1 id={headingId} className="page-title">
          {title}
        </h1>
        <div className="queue-header-actions">
          {props.headerActions}
          <Button className="button" onPress={props.onRefresh} isDisabled={props.isRefreshing}>
            Refresh
          </Button>
        </div>
      </div>
      <div className="table-card">
        {(props.search || props.actions) && (
          <div className="table-toolbar">
            {props.search ? <SearchBox value={props.search.value} onSearch={props.search.onSearch} /> : <span />}
            {props.actions && (
              <div className="queue-actions" role="group" aria-label="Actions on the selected orders">
                {props.actions}
              </div>
            )}
          </div>
        )}
        <div className="table-scroll queue-table-scroll" role="region" aria-label={`${title} list`} tabIndex={0}>
          <table className="data-table queue-table" aria-labelledby={headingId} aria-busy={props.isLoading || props.isRefreshing}>
            <thead>
              <tr>
                {selection && (
                  <th scope="col" className="queue-select-cell">
                    <Checkbox
                      className="checkbox"
                      aria-label="Select all orders on this page"
                      isSelected={shownRows.length > 0 && table.getIsAllPageRowsSelected()}
                      isIndeterminate={table.getIsSomePageRowsSelected()}
                      isDisabled={shownRows.length === 0}
                      onChange={(checked) => table.toggleAllPageRowsSelected(checked)}
                    >
                      {({ isSelected, isIndeterminate }) => <CheckMark isSelected={isSelected} isIndeterminate={isIndeterminate} />}
                    </Checkbox>
                  </th>
                )}
                {headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th key={header.id} scope="col" aria-sort={client && header.column.getCanSort() ? sortLabel(sorted) : undefined}>
                      {client && header.column.getCanSort() ? (
                        <Button className="queue-sort-button" onPress={() => header.column.toggleSorting(sorted === "asc")}>
                          <table.FlexRender header={header} />
                          <span aria-hidden="true" className="queue-sort-mark">
                            {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                          </span>
                        </Button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {props.refusal !== undefined ? (
                <tr>
                  <td colSpan={columnCount} className="table-empty queue-refusal" role="alert">
                    {props.refusal}
                  </td>
                </tr>
              ) : props.isLoading ? (
                <tr>
                  <td colSpan={columnCount} className="table-empty" role="status">
                    Loading…
                  </td>
                </tr>
              ) : shownRows.length === 0 ? (
                <tr>
                  <td colSpan={columnCount} className="table-empty queue-empty">
                    <strong>No records found</strong>
                    <br />
                    No data available in table
                  </td>
                </tr>
              ) : (
                shownRows.map((row) => (
                  <tr key={row.id} data-selected={row.getIsSelected() || undefined} data-order-id={row.id}>
                    {selection && (
                      <td className="queue-select-cell">
                        <Checkbox
                          className="checkbox"
                          aria-label={`Select order ${row.id}`}
                          isSelected={row.getIsSelected()}
                          onChange={(checked) => row.toggleSelected(checked)}
                        >
                          {({ isSelected }) => <CheckMark isSelected={isSelected} isIndeterminate={false} />}
                        </Checkbox>
                      </td>
                    )}
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id}>
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <div className="pagination queue-footer">
          <p className="queue-range" aria-live="polite">
            {total === 0 ? "Showing 0 entries" : `Showing ${first} to ${last} of ${total} entries`}
          </p>
          <RowsPerPage size={size} sizes={props.sizes} onChange={props.onSizeChange} />
          <Pagination page={shownPage} totalPages={pages} onPageChange={props.onPageChange} />
        </div>
      </div>
    </section>
  );
};
