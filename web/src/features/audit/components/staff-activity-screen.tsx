import { easternTime } from "@etd/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { Button } from "react-aria-components";
import { teamMembersQuery } from "../../../lib/team-members.ts";
import { dataOf, easternInputToIso, isoToEasternInput } from "../audit-model.ts";
import { useStaffActivity } from "../hooks/use-audit-queries.ts";
import { rangeProblem, type RangeSearch } from "../audit-search.ts";
import { FormProblem, StaffSelect } from "./form-parts.tsx";
import { MomentInput } from "./moment-input.tsx";

/*
 * Staff activity (CARD-4, issue 14): everything one member did in a time range, oldest first,
 * each order it touched linked to its replay. The team list is the Manage Team screen's, which
 * the same two roles may read.
 */

export const StaffActivityScreen = ({ search, onSearch }: { search: RangeSearch; onSearch: (next: RangeSearch) => void }) => {
  const id = useId();
  const staff = useQuery(teamMembersQuery());
  const members = dataOf(staff.data) ?? [];
  const [staffId, setStaffId] = useState(search.staffId ?? "");
  const [from, setFrom] = useState(search.from ? isoToEasternInput(search.from) : "");
  const [to, setTo] = useState(search.to ? isoToEasternInput(search.to) : "");
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const params = search.staffId && search.from && search.to ? { staffId: search.staffId, from: search.from, to: search.to } : undefined;
  const activity = useStaffActivity(params);
  const answer = activity.data;
  const data = dataOf(answer);
  const memberName = members.find((member) => member.id === data?.staffId)?.name ?? data?.staffId;

  return (
    <section className="page audit-staff" aria-labelledby="audit-staff-title">
      <h1 id="audit-staff-title" className="page-title">
        Staff activity
      </h1>
      <form
        className="card audit-form"
        onSubmit={(submit) => {
          submit.preventDefault();
          const range = { from: easternInputToIso(from), to: easternInputToIso(to) };
          const wrong = !staffId ? "Please choose a team member." : rangeProblem(range.from, range.to);
          setProblem(wrong);
          if (!wrong) onSearch({ staffId, from: range.from!, to: range.to! });
        }}
      >
        <StaffSelect id={`${id}-staff`} label="Team member" emptyLabel="Choose a team member" members={members} value={staffId} onChange={setStaffId} />
        <MomentInput id={`${id}-from`} name="from" label="From" value={from} onChange={setFrom} />
        <MomentInput id={`${id}-to`} name="to" label="To" value={to} onChange={setTo} />
        <Button type="submit" className="button button-primary">
          Show
        </Button>
        <FormProblem problem={problem} />
      </form>
      {staff.data && staff.data.status !== 1 ? (
        <p role="alert" className="audit-error">
          {staff.data.message}
        </p>
      ) : null}

      <div aria-live="polite" className="audit-result-status">
        {activity.isFetching ? <p>Reading the log…</p> : null}
        {answer && answer.status !== 1 ? (
          <p role="alert" className="audit-error">
            {answer.message}
          </p>
        ) : null}
        {data && !activity.isFetching ? (
          <p className="audit-activity-count" data-count={data.events.length}>
            {memberName}: {data.events.length} {data.events.length === 1 ? "event" : "events"} from {easternTime(data.from)} to {easternTime(data.to)}
            {data.truncated ? " (more in this range than shown: narrow it)" : ""}
          </p>
        ) : null}
      </div>

      {data ? (
        <section className="card audit-panel" aria-labelledby={`${id}-events`}>
          <h2 id={`${id}-events`} className="card-title">
            What {memberName} did
          </h2>
          <div className="table-scroll" role="region" aria-label="Events by the team member" tabIndex={0}>
            <table className="data-table audit-activity-table">
              <thead>
                <tr>
                  <th scope="col">When (US Eastern)</th>
                  <th scope="col">Order</th>
                  <th scope="col">What</th>
                  <th scope="col">IP</th>
                  <th scope="col">Event</th>
                </tr>
              </thead>
              <tbody>
                {data.events.length === 0 ? (
                  <tr>
                    <td className="table-empty" colSpan={5}>
                      Nothing in this range
                    </td>
                  </tr>
                ) : null}
                {data.events.map((event) => (
                  <tr key={event.eventId} data-order-id={event.orderId ?? ""}>
                    <td>
                      <time dateTime={event.occurredAt}>{easternTime(event.occurredAt)}</time>
                    </td>
                    <td>
                      {event.orderId ? (
                        <Link to="/admin/audit/orders/$orderId" params={{ orderId: event.orderId }}>
                          {event.orderId}
                        </Link>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="audit-summary">{event.summary}</td>
                    <td>{event.requestIp ?? "—"}</td>
                    <td>
                      <code>{event.type}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </section>
  );
};
