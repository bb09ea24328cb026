import type { ReactNode } from "react";

/**
 * An order page's history table (ORDER-8, ORDER-9, the mail history): its column headers, then its
 * rows, or one row across the table saying "No record found" (000 §6) when there are none.
 */
export const HistoryTable = ({
  label,
  className,
  scrollClassName = "table-scroll record-table",
  headers,
  isEmpty,
  children,
}: {
  /** The table's accessible name; none where a heading names it already. */
  readonly label?: string;
  readonly className?: string;
  readonly scrollClassName?: string;
  readonly headers: readonly ReactNode[];
  readonly isEmpty: boolean;
  readonly children: ReactNode;
}) => (
  <div className={scrollClassName}>
    <table className={className === undefined ? "data-table" : `data-table ${className}`} aria-label={label}>
      <thead>
        <tr>
          {headers.map((header, index) => (
            <th scope="col" key={index}>
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {isEmpty ? (
          <tr>
            <td colSpan={headers.length} className="table-empty">
              No record found
            </td>
          </tr>
        ) : (
          children
        )}
      </tbody>
    </table>
  </div>
);
