import { useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { toast } from "../../../components/ui/toast.tsx";
import { countryOrdersQuery, type DayRange } from "../utils/report-queries.ts";
import { filterRows } from "../utils/report-search.ts";
import { AdminPage, EmptyRow, ServerRefusal, TableScroll, rowsOf } from "../../../components/ui/admin-page.tsx";
import { rangeOf, ReportToolbar, type ReportScreenProps } from "./report-controls.tsx";

/** Country Orders List (ADMIN-4): orders per citizenship between two days. */
export const CountryOrderScreen = ({ search, onSearch }: ReportScreenProps) => {
  const queryClient = useQueryClient();
  const answer = useSuspenseQuery(countryOrdersQuery(rangeOf(search))).data;
  const rows = filterRows(rowsOf(answer), search.search, (row) => row.citizenship);

  const load = async (range: DayRange) => {
    const result = await queryClient.fetchQuery({ ...countryOrdersQuery(range), staleTime: 0 });
    if (result.status !== 1) toast.error(result.message);
  };

  return (
    <AdminPage id="country-order-title" title="Country Orders List">
      <div className="table-card">
        <ReportToolbar search={search} onSearch={onSearch} load={load} dateLabel="Country order dates" exportAs="country-orders" searchPlaceholder="Search by country" />
        {answer.status !== 1 ? <ServerRefusal answer={answer} /> : null}
        <TableScroll label="Orders per country">
          <table className="data-table" aria-labelledby="country-order-title">
            <thead>
              <tr>
                <th scope="col">Country</th>
                <th scope="col" className="admin-number">Order</th>
                <th scope="col" className="admin-number">Standard Orders</th>
                <th scope="col" className="admin-number">Priority Orders</th>
                <th scope="col" className="admin-number">Future Orders</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? <EmptyRow columns={5} /> : null}
              {rows.map((row) => (
                <tr key={row.citizenship_id}>
                  <td>{row.citizenship}</td>
                  <td className="admin-number">{row.count}</td>
                  <td className="admin-number">{row.standard_count}</td>
                  <td className="admin-number">{row.priority_count}</td>
                  <td className="admin-number">{row.future_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
    </AdminPage>
  );
};
