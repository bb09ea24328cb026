import { createColumnHelper } from "@tanstack/react-table";
import { Fragment } from "react";
import { capitalised, type QueueColumnDefinition, type QueueColumnKey } from "@etd/contract";
import type { QueueRow } from "../utils/queue-queries.ts";
import { DueCell } from "./due.tsx";
import type { QueueColumn, QueueTableFeatures } from "./queue-table.tsx";
import { RowActions, type RowActionsOptions } from "./row-actions.tsx";

/*
 * The columns of QUEUE-3 and 001 §2, by queue screen. Which columns a queue shows, in which order
 * and under which header, is the contract's list (queueColumnsOf: its column set, with Due on New,
 * Priority, Pending and My Orders, issue 27; a screen's `columns`), the one the CSV export writes
 * too; here is how each cell renders. The server formats every date
 * for its list (QUEUE-6), so cells show its display fields as they come.
 */

const helper = createColumnHelper<QueueTableFeatures, QueueRow>();

/** QUEUE-3: the status with its first letter capitalised (the contract's rule, which the export follows too). */
export { capitalised };

/*
 * Fitting a 1366 px laptop (issue 10 item 9): the table never scrolls sideways. Names and e-mail
 * addresses wrap within their cells (an address at its "@" and dots, and only a part longer than
 * its column mid-word), dates wrap between day and time, a telephone number after its country
 * code, headers between words; only the order id stays on one line. Everything stays readable in
 * full: nothing is cut off, so nothing needs a tooltip.
 */

/** Text kept on one line (an id). */
const OneLine = ({ text }: { text: string }) => <span className="queue-one-line">{text}</span>;

/** An e-mail address that may wrap: preferably after its "@" and before its dots. */
export const WrappingEmail = ({ email }: { email: string }) => (
  <span className="queue-email">
    {email.split(/(?<=@)|(?=\.)/).map((part, index) => (
      <Fragment key={index}>
        {index > 0 && <wbr />}
        {part}
      </Fragment>
    ))}
  </span>
);

/** How each column of the contract's list renders, under the header its set gives it. */
const CELLS: { readonly [K in Exclude<QueueColumnKey, "processingDate" | "processMonth">]: (header: string) => QueueColumn<QueueRow> } = {
  orderId: (header) => helper.accessor("id", { id: "orderId", header, cell: (info) => <OneLine text={info.getValue()} /> }),
  name: (header) => helper.accessor("name", { id: "name", header }),
  email: (header) => helper.accessor((row) => row.email ?? "", { id: "email", header, cell: (info) => <WrappingEmail email={info.getValue()} /> }),
  // May wrap after its country code: the e-mail's room comes from here on a laptop.
  telephone: (header) => helper.accessor("telephone", { id: "telephone", header }),
  arrivalDate: (header) => helper.accessor((row) => row.arrivalDate ?? "", { id: "arrivalDate", header }),
  date: (header) => helper.accessor("date", { id: "date", header }),
  departureDate: (header) => helper.accessor((row) => row.departureDate ?? "", { id: "departureDate", header }),
  refundDate: (header) => helper.accessor((row) => row.refundDate ?? "", { id: "refundDate", header }),
  // Counted from now in the browser, as time passes (issue 27); the export keeps the due moment.
  due: (header) => helper.accessor("due", { id: "due", header, cell: ({ row }) => <DueCell row={row.original} /> }),
  status: (header) => helper.accessor("status", { id: "status", header, cell: ({ row }) => capitalised(row.original.status) }),
};

type Columns = readonly QueueColumnDefinition[];

const cellsOf = (columns: Columns): QueueColumn<QueueRow>[] =>
  columns.map((column) => {
    const render = CELLS[column.key as keyof typeof CELLS];
    if (render === undefined) throw new Error(`no cell for the column ${column.key}`);
    return render(column.header);
  });

/** Built once per list of columns (each screen's is one constant), so they keep their identity from render to render. */
const BUILT = new WeakMap<Columns, readonly QueueColumn<QueueRow>[]>();
const cellsOfScreen = (columns: Columns) => {
  const cells = BUILT.get(columns) ?? cellsOf(columns);
  BUILT.set(columns, cells);
  return cells;
};

const action = (options: RowActionsOptions) =>
  helper.display({ id: "action", header: "Action", cell: ({ row }) => <RowActions row={row.original} {...options} /> });

/** The columns of one queue screen, Action last (without Delete where the screen offers none: queue-screens.ts's `rowDelete`). */
export const queueColumns = (columns: Columns, options: RowActionsOptions): QueueColumn<QueueRow>[] => [...cellsOfScreen(columns), action(options)];

/**
 * ADMIN-3's month table: Order ID, Name, Email, Telephone, Date and Time, Processing Date, Process
 * Month, Status, Action. Sortable: the dates sort by their ISO values, shown in the list's format.
 */
export const futureColumns = (options: RowActionsOptions): QueueColumn<QueueRow>[] => [
  helper.accessor("id", { id: "orderId", header: "Order ID", sortFn: "alphanumeric", cell: (info) => <OneLine text={info.getValue()} /> }),
  helper.accessor("name", { id: "name", header: "Name", sortFn: "text" }),
  helper.accessor((row) => row.email ?? "", { id: "email", header: "Email", sortFn: "text", cell: (info) => <WrappingEmail email={info.getValue()} /> }),
  helper.accessor("telephone", { id: "telephone", header: "Telephone", sortFn: "alphanumeric", cell: (info) => <OneLine text={info.getValue()} /> }),
  helper.accessor("created_at", { id: "date", header: "Date and Time", sortFn: "text", cell: ({ row }) => row.original.date }),
  helper.accessor("processing_date", {
    id: "processingDate",
    header: "Processing Date",
    sortFn: "text",
    cell: ({ row }) => row.original.processingDate,
  }),
  helper.accessor("process_month", {
    id: "processMonth",
    header: "Process Month",
    sortFn: "text",
    cell: ({ row }) => row.original.processMonth,
  }),
  helper.accessor("status", { id: "status", header: "Status", sortFn: "text", cell: ({ row }) => capitalised(row.original.status) }),
  { ...action(options), enableSorting: false },
];
