import { createColumnHelper } from "@tanstack/react-table";
import { Fragment } from "react";
import type { QueueRow } from "../api/queue-row.ts";
import type { ColumnSet } from "../queue-screens.ts";
import type { QueueColumn, QueueTableFeatures } from "./queue-table.tsx";
import { RowActions, type RowActionsOptions } from "./row-actions.tsx";

/*
 * The columns of QUEUE-3 and 001 §2, by column set (see queue-screens.ts). The server formats
 * every date for its list (QUEUE-6), so cells show its display fields as they come.
 */

const helper = createColumnHelper<QueueTableFeatures, QueueRow>();

/** QUEUE-3: the status with its first letter capitalised. */
export const capitalised = (text: string): string => (text === "" ? text : text[0]!.toUpperCase() + text.slice(1));

/*
 * Fitting a 1366 px laptop (issue 10 item 9): the table never scrolls sideways. Names and e-mail
 * addresses wrap within their cells (an address at its "@" and dots first), dates wrap between
 * day and time, headers between words; only the order id and the telephone number stay on one
 * line. Everything stays readable in full: nothing is cut off, so nothing needs a tooltip.
 */

/** Text kept on one line (an id, a telephone number). */
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

const orderId = helper.accessor("id", { id: "orderId", header: "Order Id", cell: (info) => <OneLine text={info.getValue()} /> });
const name = helper.accessor("name", { id: "name", header: "Name" });
const email = helper.accessor((row) => row.email ?? "", { id: "email", header: "Email", cell: (info) => <WrappingEmail email={info.getValue()} /> });
const telephone = helper.accessor("telephone", { id: "telephone", header: "Telephone", cell: (info) => <OneLine text={info.getValue()} /> });
const arrivalDate = helper.accessor((row) => row.arrivalDate ?? "", { id: "arrivalDate", header: "Arrival Date" });
const dateTime = helper.accessor("date", { id: "date", header: "Date & Time" });
const dateAndTime = helper.accessor("date", { id: "date", header: "Date and Time" });
const departureDate = helper.accessor((row) => row.departureDate ?? "", { id: "departureDate", header: "Departure Date" });
const refundDate = helper.accessor((row) => row.refundDate ?? "", { id: "refundDate", header: "Refund Date" });
const status = helper.accessor("status", { id: "status", header: "Status", cell: (info) => capitalised(info.getValue()) });

const action = (options: RowActionsOptions) =>
  helper.display({ id: "action", header: "Action", cell: ({ row }) => <RowActions row={row.original} {...options} /> });

/** The columns of one queue screen, Action last. */
export const queueColumns = (set: ColumnSet, options: RowActionsOptions): QueueColumn<QueueRow>[] => {
  switch (set) {
    case "intake":
      return [orderId, name, email, telephone, arrivalDate, dateTime, departureDate, status, action(options)];
    case "noTelephone":
      return [orderId, name, email, arrivalDate, dateTime, status, action(options)];
    case "refund":
      return [orderId, email, telephone, dateTime, refundDate, status, action({ ...options, onDelete: undefined })];
    case "assigned":
      return [orderId, name, email, telephone, dateAndTime, departureDate, status, action(options)];
    case "standard":
      return [orderId, name, email, telephone, arrivalDate, dateTime, status, action(options)];
  }
};

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
