import { easternTime, type QueueKey } from "@etd/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { Button } from "react-aria-components";
import { teamMembersQuery } from "../../../lib/team-members.ts";
import { pageCount } from "../../../lib/page-count.ts";
import { dataOf, easternInputToIso, FOLDER_OPTIONS, folderLabel, isoToEasternInput } from "../audit-model.ts";
import { useQueueAt } from "../hooks/use-audit-queries.ts";
import type { QueueAtSearch } from "../audit-search.ts";
import { FormProblem, StaffSelect } from "./form-parts.tsx";
import { MomentInput } from "./moment-input.tsx";

/*
 * A queue at a moment (CARD-4, issue 14): a folder as it stood at a chosen past time, folded from
 * the log by the server (not today's read model), with its count and its pages. The folder, the
 * moment and the page are the URL's, so a finding can be shared.
 */

export const QueueAtScreen = ({ search, onSearch }: { search: QueueAtSearch; onSearch: (next: QueueAtSearch) => void }) => {
  const id = useId();
  const [folder, setFolder] = useState<QueueKey>(search.folder ?? "newOrder");
  const [moment, setMoment] = useState(search.at ? isoToEasternInput(search.at) : "");
  const [staffId, setStaffId] = useState(search.staffId ?? "");
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const staff = useQuery({ ...teamMembersQuery(), enabled: folder === "myOrder" });
  const members = dataOf(staff.data) ?? [];

  const page = search.page ?? 1;
  const params = search.folder && search.at ? { folder: search.folder, at: search.at, page, staffId: search.staffId } : undefined;
  const queue = useQueueAt(params);
  const answer = queue.data;
  const data = dataOf(answer);
  const pages = data ? pageCount(data.count, data.pageSize) : 1;

  return (
    <section className="page audit-queue" aria-labelledby="audit-queue-title">
      <h1 id="audit-queue-title" className="page-title">
        Queue at a moment
      </h1>
      <form
        className="card audit-form"
        onSubmit={(submit) => {
          submit.preventDefault();
          const at = easternInputToIso(moment);
          if (!at) {
            setProblem("Please give the moment: a date and a time.");
            return;
          }
          setProblem(undefined);
          onSearch({ folder, at, ...(folder === "myOrder" && staffId ? { staffId } : {}) });
        }}
      >
        <div className="field">
          <label className="label" htmlFor={`${id}-folder`}>
            Folder
          </label>
          <select id={`${id}-folder`} name="folder" className="input" value={folder} onChange={(event) => setFolder(event.target.value as QueueKey)}>
            {FOLDER_OPTIONS.map((option) => (
              <option key={option.key} value={option.key}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        {folder === "myOrder" ? (
          <StaffSelect id={`${id}-staff`} label="Whose orders" emptyLabel="Mine (the signed-in member)" members={members} value={staffId} onChange={setStaffId} />
        ) : null}
        <MomentInput id={`${id}-at`} name="at" label="Moment" value={moment} onChange={setMoment} />
        <Button type="submit" className="button button-primary">
          Show
        </Button>
        <FormProblem problem={problem} />
      </form>

      <div aria-live="polite" className="audit-result-status">
        {queue.isFetching ? <p>Folding the folder from the log…</p> : null}
        {answer && answer.status !== 1 ? (
          <p role="alert" className="audit-error">
            {answer.message}
          </p>
        ) : null}
        {data && !queue.isFetching ? (
          <p className="audit-queue-count" data-count={data.count}>
            {folderLabel(data.folder)} at {easternTime(data.at)}: {data.count} {data.count === 1 ? "order" : "orders"}
          </p>
        ) : null}
      </div>

      {data ? (
        <section className="card audit-panel" aria-labelledby={`${id}-rows`}>
          <h2 id={`${id}-rows`} className="card-title">
            {folderLabel(data.folder)} as it stood at {easternTime(data.at)}
          </h2>
          <div className="table-scroll" role="region" aria-label="Orders in the folder then" tabIndex={0}>
            <table className="data-table audit-queue-table">
              <thead>
                <tr>
                  <th scope="col">Order Id</th>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Assigned to</th>
                  <th scope="col">Created (US Eastern)</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.length === 0 ? (
                  <tr>
                    <td className="table-empty" colSpan={5}>
                      No orders were in this folder then
                    </td>
                  </tr>
                ) : null}
                {data.rows.map((row) => (
                  <tr key={row.orderId} data-order-id={row.orderId}>
                    <td>
                      <Link to="/admin/audit/orders/$orderId" params={{ orderId: row.orderId }}>
                        {row.orderId}
                      </Link>
                    </td>
                    <td>{row.name}</td>
                    <td>{row.statusLabel}</td>
                    <td>{row.assigneeName ?? "—"}</td>
                    <td>
                      <time dateTime={row.createdAt}>{easternTime(row.createdAt)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 || data.page > 1 ? (
            <nav aria-label="Pagination" className="audit-pages">
              <Button className="page-button" isDisabled={data.page <= 1} onPress={() => onSearch({ ...search, page: data.page - 1 })}>
                ‹ Previous
              </Button>
              <span aria-current="page">
                Page {data.page} of {Math.max(pages, data.page)}
              </span>
              <Button className="page-button" isDisabled={data.page >= pages} onPress={() => onSearch({ ...search, page: data.page + 1 })}>
                Next ›
              </Button>
            </nav>
          ) : null}
        </section>
      ) : null}
    </section>
  );
};
