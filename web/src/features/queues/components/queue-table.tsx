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
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { Button, Checkbox } from "react-aria-components";
import { announce, LiveRegion } from "../../../components/ui/live-region.tsx";
import { useQueueKeyboard, type QueueKeyCommand } from "../hooks/use-queue-keyboard.ts";
import { pageCount } from "../../../lib/page-count.ts";
import { useHeadClearance } from "../../../lib/use-head-clearance.ts";
import type { PageSize } from "../queue-search.ts";
import { Pagination } from "./pagination.tsx";
import { RowsPerPage } from "./rows-per-page.tsx";
import { SearchBox } from "./search-box.tsx";
import "../../../styles/queues.css";

/** The list of shortcuts' dialog code, fetched when `?` is first pressed. */
const ShortcutsDialog = lazy(() => import("./shortcuts-dialog.tsx").then((module) => ({ default: module.ShortcutsDialog })));

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
  /** Between the toolbar and the rows: the select-all bar (issue 16 B). */
  readonly notice?: ReactNode;
  /** The keyboard shortcuts (issue 16 C); none when absent. */
  readonly keyboard?: QueueKeyboard<TData>;
  /** In the toolbar after the search box: filters of the list (issue 27's due filters). */
  readonly filters?: ReactNode;
  /**
   * Server paging's one sortable column (issue 27: Due): its header is a button that asks the
   * server for that order (ascending: the most urgent first) or back to the list's own.
   */
  readonly serverSort?: { readonly columnId: string; readonly sorted: boolean; readonly onToggle: () => void };
}

/** What the keyboard does with a row; the table keeps which row is current. */
export interface QueueKeyboard<TData> {
  /** A row as it is spoken: "order 300001, Jane Doe". */
  readonly describe: (row: TData) => string;
  /** Enter: opens the row when `canOpen`, else says `whyNotOpen`. */
  readonly canOpen: (row: TData) => boolean;
  readonly open: (row: TData) => void;
  readonly whyNotOpen: (row: TData) => string;
  /** `a`: Assign to me, given the current row; absent where the screen does not offer it. */
  readonly assign?: ((current: TData | undefined) => void) | undefined;
  /** `n`: Take next (issue 27); absent where the screen does not offer it. */
  readonly takeNext?: (() => void) | undefined;
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
  const { title, columns, rows, paging, page, size, selection, keyboard } = props;
  const [sorting, setSorting] = useState<SortingState>(EMPTY_SORTING);
  const [currentId, setCurrentId] = useState<string | undefined>(undefined);
  // "never" until `?` is first pressed: the dialog's code loads then, and stays for the next time.
  const [shortcuts, setShortcuts] = useState<"never" | "open" | "closed">("never");
  const searchInput = useRef<HTMLInputElement>(null);
  const tbody = useRef<HTMLTableSectionElement>(null);
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

  // The current row is remembered by id: when it leaves the list (assigned, deleted, another
  // search) there is none until j or k picks one again.
  const currentIndex = currentId === undefined ? -1 : shownRows.findIndex((row) => row.id === currentId);
  const current = currentIndex === -1 ? undefined : shownRows[currentIndex];

  useEffect(() => {
    if (currentId === undefined) return;
    tbody.current?.querySelector(`tr[data-order-id="${CSS.escape(currentId)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [currentId]);

  const spoken = (row: (typeof shownRows)[number], index: number) =>
    `Row ${index + 1} of ${shownRows.length}: ${keyboard?.describe(row.original) ?? row.id}${row.getIsSelected() ? ", selected" : ""}`;

  const onKey = (command: QueueKeyCommand) => {
    if (!keyboard) return;
    switch (command) {
      case "next":
      case "previous": {
        if (shownRows.length === 0) return announce("No orders on this page.");
        const step = command === "next" ? 1 : -1;
        const next = currentIndex === -1 ? (step === 1 ? 0 : shownRows.length - 1) : Math.min(shownRows.length - 1, Math.max(0, currentIndex + step));
        const row = shownRows[next]!;
        setCurrentId(row.id);
        const edge = next === currentIndex ? (step === 1 ? " (last on this page)" : " (first on this page)") : "";
        return announce(`${spoken(row, next)}${edge}`);
      }
      case "open":
        if (!current) return announce("No order is current. Press j or k to choose one.");
        return keyboard.canOpen(current.original) ? keyboard.open(current.original) : announce(keyboard.whyNotOpen(current.original));
      case "toggle": {
        if (!current) return announce("No order is current. Press j or k to choose one.");
        if (!selection || !current.getCanSelect()) return announce("Orders cannot be selected here.");
        const nowSelected = !current.getIsSelected();
        current.toggleSelected(nowSelected);
        return announce(`${keyboard.describe(current.original)} ${nowSelected ? "selected" : "not selected"}.`);
      }
      case "assign":
        return keyboard.assign ? keyboard.assign(current?.original) : announce("Assign to me is not offered on this list.");
      case "takeNext":
        return keyboard.takeNext ? keyboard.takeNext() : announce("Take next is not offered on this list.");
      case "search":
        return searchInput.current ? searchInput.current.focus() : announce("This list has no search.");
      case "help":
        return setShortcuts("open");
    }
  };
  useQueueKeyboard(keyboard !== undefined, onKey);
  const scroller = useRef<HTMLDivElement>(null);
  useHeadClearance(scroller);

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
            {props.search ? <SearchBox value={props.search.value} onSearch={props.search.onSearch} inputRef={searchInput} /> : <span />}
            {props.filters}
            {props.actions && (
              <div className="queue-actions" role="group" aria-label="Actions on the selected orders">
                {props.actions}
              </div>
            )}
          </div>
        )}
        {props.notice}
        <div ref={scroller} className="table-scroll queue-table-scroll" role="region" aria-label={`${title} list`} tabIndex={0}>
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
                  const serverSort = !client && props.serverSort?.columnId === header.id ? props.serverSort : undefined;
                  if (serverSort) {
                    return (
                      <th key={header.id} scope="col" aria-sort={serverSort.sorted ? "ascending" : "none"}>
                        <Button className="queue-sort-button" onPress={serverSort.onToggle}>
                          <table.FlexRender header={header} />
                          <span aria-hidden="true" className="queue-sort-mark">
                            {serverSort.sorted ? "▲" : "↕"}
                          </span>
                        </Button>
                      </th>
                    );
                  }
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
            <tbody ref={tbody}>
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
                  <tr
                    key={row.id}
                    data-selected={row.getIsSelected() || undefined}
                    data-order-id={row.id}
                    data-current={row.id === current?.id || undefined}
                    aria-current={row.id === current?.id ? "true" : undefined}
                  >
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
      {keyboard && (
        <>
          <p className="queue-shortcuts-hint">
            Keyboard: <kbd>j</kbd> and <kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>?</kbd> lists every shortcut.
          </p>
          <LiveRegion />
          {shortcuts !== "never" && (
            <Suspense fallback={null}>
              <ShortcutsDialog isOpen={shortcuts === "open"} onClose={() => setShortcuts("closed")} />
            </Suspense>
          )}
        </>
      )}
    </section>
  );
};
