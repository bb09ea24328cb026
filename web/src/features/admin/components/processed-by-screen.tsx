import { useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { toast } from "../../../components/ui/toast.tsx";
import type { DayRange } from "../api/day-range.ts";
import { processedByQuery } from "../api/get-processed-by-count.ts";
import { filterRows } from "../utils/report-search.ts";
import { AdminPage, EmptyRow, ServerRefusal, TableScroll, rowsOf } from "./admin-page.tsx";
import type { ReportScreenProps } from "./country-order-screen.tsx";
import { DateRangeForm, ReportSearchBox } from "./report-controls.tsx";

/**
 * Processed By (ADMIN-5): orders per staff member who processed them. 001 §8 shows the server's
 * answer as a toast on the first load and on every Submit; refreshes from live changes stay quiet.
 */
export const ProcessedByScreen = ({ search, onSearch }: ReportScreenProps) => {
  const queryClient = useQueryClient();
  const range: DayRange = { fromDate: search.fromDate, toDate: search.toDate };
  const answer = useSuspenseQuery(processedByQuery(range)).data;
  const rows = filterRows(rowsOf(answer), search.search, (row) => row.processed_by);

  const announced = useRef(false);
  useEffect(() => {
    if (announced.current) return;
    announced.current = true;
    toast.answer(answer);
  }, [answer]);

  const submit = async (next: DayRange) => {
    const result = await queryClient.fetchQuery({ ...processedByQuery(next), staleTime: 0 });
    toast.answer(result);
    onSearch({ ...next, search: search.search }, false);
  };

  return (
    <AdminPage id="processed-by-title" title="Processed By">
      <div className="table-card">
        <div className="table-toolbar">
          <DateRangeForm key={`${range.fromDate ?? ""}|${range.toDate ?? ""}`} range={range} onSubmit={submit} label="Processed by dates" />
          <ReportSearchBox
            committed={search.search ?? ""}
            placeholder="Search by name"
            onCommit={(text) => onSearch({ ...range, search: text }, true)}
          />
        </div>
        {answer.status !== 1 ? <ServerRefusal answer={answer} /> : null}
        <TableScroll label="Orders per team member">
          <table className="data-table" aria-labelledby="processed-by-title">
            <thead>
              <tr>
                <th scope="col">S. No</th>
                <th scope="col">Name</th>
                <th scope="col" className="admin-number">Order Count</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? <EmptyRow columns={3} /> : null}
              {rows.map((row, index) => (
                <tr key={row.processed_by_id}>
                  <td>{index + 1}</td>
                  <td>{row.processed_by}</td>
                  <td className="admin-number">{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
    </AdminPage>
  );
};
