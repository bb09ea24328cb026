import { AUDIT } from "@etd/contract/endpoints";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "react-aria-components";
import { callApi } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { formatMoment } from "../format-moment.ts";

const AUDIT_LIMIT = 500;

/** The order's timeline: one line per event, who, when, from which IP, what (CARD-4). Refetched with the order. */
const Timeline = ({ orderId }: { readonly orderId: string }) => {
  const timeline = useQuery({
    queryKey: [...queryKeys.order_details, "audit", orderId],
    queryFn: async ({ signal }) => {
      const answer = await callApi(AUDIT.getOrderTimeline, { params: { orderId }, query: { limit: String(AUDIT_LIMIT) } }, { signal });
      if (answer.status !== 1 || !answer.data) throw new Error(answer.message);
      return answer.data.lines;
    },
  });
  if (timeline.isPending) return <p role="status">Loading the timeline…</p>;
  if (timeline.isError) return <p role="alert">{timeline.error.message}</p>;
  return (
    <ol className="order-timeline">
      {timeline.data.map((line) => (
        <li key={line.event_id}>
          <time dateTime={line.occurred_at}>{formatMoment(line.occurred_at)}</time> — <strong>{line.actor_name}</strong>
          {line.actor_role ? ` (${line.actor_role})` : ""}
          {line.request_ip ? ` from ${line.request_ip}` : ""}: {line.summary}
        </li>
      ))}
    </ol>
  );
};

/** The order as it stood at a chosen moment (folded from its events). */
const AsOf = ({ orderId }: { readonly orderId: string }) => {
  const id = useId();
  const [moment, setMoment] = useState("");
  const [asked, setAsked] = useState<string | undefined>(undefined);
  const asOf = useQuery({
    queryKey: [...queryKeys.order_details, "as-of", orderId, asked],
    enabled: asked !== undefined,
    queryFn: async ({ signal }) => {
      const answer = await callApi(AUDIT.getOrderAsOf, { params: { orderId }, query: { at: asked! } }, { signal });
      if (answer.status !== 1 || !answer.data) throw new Error(answer.message);
      return answer.data;
    },
  });
  return (
    <div className="order-as-of">
      <form
        className="order-inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          const date = new Date(moment);
          if (!Number.isNaN(date.getTime())) setAsked(date.toISOString());
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-at`}>The order as it stood at</label>
          <input id={`${id}-at`} className="input" type="datetime-local" step={1} value={moment} onChange={(event) => setMoment(event.target.value)} />
        </div>
        <Button type="submit" className="button button-primary">
          Show
        </Button>
      </form>
      {asOf.isError && <p role="alert">{asOf.error.message}</p>}
      {asOf.data && (
        <div aria-live="polite">
          <p>
            As of <time dateTime={asOf.data.asOf}>{formatMoment(asOf.data.asOf)}</time> ({asOf.data.eventsApplied} events): status{" "}
            <strong>{typeof asOf.data.order.statusLabel === "string" ? asOf.data.order.statusLabel : "not placed yet"}</strong>, {asOf.data.remarks.length} comments
            {asOf.data.transaction ? `, transaction ${asOf.data.transaction.transactionId} (${asOf.data.transaction.merchantName})` : ""}.
          </p>
          <pre className="order-as-of-state">{JSON.stringify(asOf.data.order, null, 2)}</pre>
        </div>
      )}
    </div>
  );
};

/** The Audit tab (Admin and Manager, "audit.read"). */
export const AuditTab = ({ orderId }: { readonly orderId: string }) => (
  <div className="order-audit">
    <section className="card order-section" aria-labelledby="timeline-title">
      <h2 className="card-title" id="timeline-title">
        Timeline
      </h2>
      <Timeline orderId={orderId} />
    </section>
    <section className="card order-section" aria-labelledby="as-of-title">
      <h2 className="card-title" id="as-of-title">
        As it stood
      </h2>
      <AsOf orderId={orderId} />
    </section>
  </div>
);
