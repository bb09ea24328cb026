import { isAllowed } from "@etd/contract";
import { useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { useEffect, useRef } from "react";
import { sessionAtom } from "../../../lib/session.ts";
import { toast } from "../../../components/ui/toast.tsx";
import { processedByQuery, type DayRange } from "../utils/report-queries.ts";
import { filterRows } from "../utils/report-search.ts";
import { AdminPage, EmptyRow, ServerRefusal, TableScroll, rowsOf } from "../../../components/ui/admin-page.tsx";
import { rangeOf, ReportToolbar, type ReportScreenProps } from "./report-controls.tsx";

/**
 * Processed By (ADMIN-5) sums up Order Processed and, like it, is for the roles the permission
 * table allows `orders.processed` (Admin, 000 §6). Anyone else who opens its address is told so
 * without a request the server would refuse (the route's loader does not ask either).
 */
export const ProcessedByScreen = (props: ReportScreenProps) => {
  const session = useAtomValue(sessionAtom);
  if (!session || !isAllowed(session.role, "orders.processed")) {
    return (
      <AdminPage id="processed-by-title" title="Processed By">
        <p className="admin-refusal" role="alert">
          Processed By is for Admins only, like Order Processed.
        </p>
      </AdminPage>
    );
  }
  return <ProcessedByReport {...props} />;
};

/**
 * Orders per staff member who processed them. 001 §8 shows the server's answer as a toast on the
 * first load and on every Submit; refreshes from live changes stay quiet.
 */
const ProcessedByReport = ({ search, onSearch }: ReportScreenProps) => {
  const queryClient = useQueryClient();
  const answer = useSuspenseQuery(processedByQuery(rangeOf(search))).data;
  const rows = filterRows(rowsOf(answer), search.search, (row) => row.processed_by);

  const announced = useRef(false);
  useEffect(() => {
    if (announced.current) return;
    announced.current = true;
    toast.answer(answer);
  }, [answer]);

  const load = async (range: DayRange) => {
    toast.answer(await queryClient.fetchQuery({ ...processedByQuery(range), staleTime: 0 }));
  };

  return (
    <AdminPage id="processed-by-title" title="Processed By">
      <div className="table-card">
        <ReportToolbar search={search} onSearch={onSearch} load={load} dateLabel="Processed by dates" exportAs="processed-by" searchPlaceholder="Search by name" />
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
