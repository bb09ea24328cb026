import { easternTime, type AuditEvent, type OrderAsOf } from "@etd/contract";
import { useId, useState } from "react";
import { AUDIT } from "@etd/contract/endpoints";
import { Button } from "react-aria-components";
import { ServiceLevelPanel } from "../../../components/service-level-panel.tsx";
import { actorLabel, clampPosition, dataOf, diffKindView, eventChoiceLabel, flattenFields, momentAtPosition, orderHeadline, presentValue } from "../audit-model.ts";
import { useOrderAsOf, useOrderDiff, useOrderHistory } from "../hooks/use-audit-queries.ts";
import { ExportButton } from "./export-button.tsx";
import { OrderIdBox } from "./order-id-box.tsx";

/*
 * Order replay (CARD-4, issue 14): the order's every event, a slider over them that shows the
 * whole order as it stood after the chosen one (asked of the server at that event's time), and
 * the changes between any two moments. The slider is a native range input: keyboard-operable,
 * labelled, and its value spoken as the event it stands on.
 */

const When = ({ iso }: { iso: string }) => <time dateTime={iso}>{easternTime(iso)}</time>;

/** The timeline: one row per event, the shown one marked in words as well as colour. */
const Timeline = ({ events, shown, onShow }: { events: readonly AuditEvent[]; shown: number; onShow: (position: number) => void }) => (
  <div className="table-scroll audit-timeline-scroll" role="region" aria-label="Timeline of events" tabIndex={0}>
    <table className="data-table audit-timeline">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">When (US Eastern)</th>
          <th scope="col">Who</th>
          <th scope="col">IP</th>
          <th scope="col">What</th>
          <th scope="col">Event</th>
          <th scope="col">
            <span className="visually-hidden">Show</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {events.map((event, index) => {
          const position = index + 1;
          const selected = position === shown;
          return (
            <tr key={event.eventId} className={selected ? "audit-selected" : undefined} aria-current={selected ? "step" : undefined} data-position={position} data-event-id={event.eventId} data-event-type={event.type}>
              <td>{position}</td>
              <td>
                <When iso={event.occurredAt} />
              </td>
              <td>{actorLabel(event)}</td>
              <td>{event.requestIp ?? "—"}</td>
              <td className="audit-summary">{event.summary}</td>
              <td>
                <code>{event.type}</code>
                {event.stream.startsWith("order-") ? null : <span className="muted"> (mail)</span>}
              </td>
              <td>
                {selected ? (
                  <span className="audit-shown-marker">◀ Shown</span>
                ) : (
                  <Button className="button button-small" aria-label={`Show the order after event ${position}`} onPress={() => onShow(position)}>
                    Show
                  </Button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  </div>
);

/** The order as it stood: status, assignee, remarks, then every other field. */
const AsOfPanel = ({ asOf }: { asOf: OrderAsOf }) => {
  const headline = orderHeadline(asOf.order);
  const fields = [
    ...flattenFields(asOf.order).filter(([path]) => path !== "exists" && path !== "statusLabel"),
    ...flattenFields(asOf.application, "application"),
    ...flattenFields(asOf.personal, "personal"),
    ...flattenFields(asOf.transaction, "transaction"),
  ];
  return (
    <div className="audit-as-of" data-events-applied={asOf.eventsApplied}>
      <dl className="audit-headline">
        <div>
          <dt>Status</dt>
          <dd className="audit-as-of-status">{headline.statusLabel}</dd>
        </div>
        <div>
          <dt>Assigned to</dt>
          <dd className="audit-as-of-assignee">{headline.assignee}</dd>
        </div>
        <div>
          <dt>Events applied</dt>
          <dd>{asOf.eventsApplied}</dd>
        </div>
      </dl>
      <h3 className="audit-subtitle">Remarks ({asOf.remarks.length})</h3>
      {asOf.remarks.length === 0 ? (
        <p className="muted">No remarks yet.</p>
      ) : (
        <ol className="audit-remarks">
          {asOf.remarks.map((remark, index) => (
            <li key={`${remark.at}-${index}`}>
              <span className="audit-remark-text">{remark.remark}</span>
              <span className="muted">
                {" "}
                — {remark.by}, <When iso={remark.at} />
                {remark.flags.length > 0 ? ` [${remark.flags.join(", ")}]` : ""}
              </span>
            </li>
          ))}
        </ol>
      )}
      {headline.exists ? (
        <details className="audit-fields">
          <summary>All fields ({fields.length})</summary>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {fields.map(([path, value]) => (
                <tr key={path}>
                  <th scope="row">
                    <code>{path}</code>
                  </th>
                  <td className="audit-value">{presentValue(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </div>
  );
};

/** The slider and the order at its moment. */
const Replay = ({ orderId, events }: { orderId: string; events: readonly AuditEvent[] }) => {
  const id = useId();
  const count = events.length;
  const [position, setPosition] = useState(count);
  const shown = clampPosition(position, count);
  const event = events[shown - 1]!;
  const asOf = useOrderAsOf(orderId, momentAtPosition(events, shown));
  const answer = asOf.data;
  const data = dataOf(answer);
  // The answer kept while the next loads is the previous moment's: say so rather than pass it off as this one.
  const current = data !== undefined && !asOf.isPlaceholderData;
  return (
    <>
      <section className="card audit-panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="card-title">
          The order at a moment
        </h2>
        <div className="audit-slider">
          <label htmlFor={`${id}-slider`} className="label">
            After event {shown} of {count}
          </label>
          <input
            id={`${id}-slider`}
            name="moment"
            type="range"
            min={1}
            max={count}
            step={1}
            value={shown}
            aria-valuetext={`Event ${shown} of ${count}: ${event.summary}, ${easternTime(event.occurredAt)}`}
            onChange={(change) => setPosition(Number(change.target.value))}
          />
          <div className="audit-slider-steps">
            <Button className="button button-small" isDisabled={shown <= 1} onPress={() => setPosition(shown - 1)}>
              ‹ Previous event
            </Button>
            <Button className="button button-small" isDisabled={shown >= count} onPress={() => setPosition(shown + 1)}>
              Next event ›
            </Button>
          </div>
        </div>
        <p className="audit-moment" aria-live="polite" data-position={shown} data-ready={current ? "true" : "false"}>
          {current ? "As it stood after" : "Loading the order after"} event {shown}: {event.summary} — <When iso={event.occurredAt} />, {actorLabel(event)}
        </p>
        {answer && answer.status !== 1 ? (
          <p role="alert" className="audit-error">
            {answer.message}
          </p>
        ) : null}
        {asOf.isError ? (
          <p role="alert" className="audit-error">
            {asOf.error.message}
          </p>
        ) : null}
        {data ? (
          <div className={current ? undefined : "audit-stale"} aria-busy={!current}>
            <AsOfPanel asOf={data} />
          </div>
        ) : null}
        {/* Issue 27: the order's service-level clock as it stood at the same moment. */}
        <ServiceLevelPanel orderId={orderId} asOf={momentAtPosition(events, shown)} headingLevel={3} />
      </section>
      <section className="card audit-panel" aria-labelledby={`${id}-timeline`}>
        <h2 id={`${id}-timeline`} className="card-title">
          Timeline ({count} events)
        </h2>
        <Timeline events={events} shown={shown} onShow={setPosition} />
      </section>
      <Compare orderId={orderId} events={events} />
    </>
  );
};

/** Two moments (two events) and the fields that differ between them. */
const Compare = ({ orderId, events }: { orderId: string; events: readonly AuditEvent[] }) => {
  const id = useId();
  const count = events.length;
  const [from, setFrom] = useState(1);
  const [to, setTo] = useState(count);
  const [asked, setAsked] = useState<{ from: string; to: string; fromPosition: number; toPosition: number } | undefined>(undefined);
  const diff = useOrderDiff(orderId, asked);
  const answer = diff.data;
  const data = dataOf(answer);
  const choices = events.map((event, index) => ({ position: index + 1, label: eventChoiceLabel(event, index + 1, easternTime) }));
  const select = (name: string, label: string, value: number, onChange: (value: number) => void) => (
    <div className="field">
      <label className="label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <select id={`${id}-${name}`} name={name} className="input" value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {choices.map((choice) => (
          <option key={choice.position} value={choice.position}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <section className="card audit-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Compare two moments
      </h2>
      <form
        className="audit-form audit-compare-form"
        onSubmit={(submit) => {
          submit.preventDefault();
          const [a, b] = from <= to ? [from, to] : [to, from];
          setAsked({ from: momentAtPosition(events, a)!, to: momentAtPosition(events, b)!, fromPosition: a, toPosition: b });
        }}
      >
        {select("from", "From: after event", from, setFrom)}
        {select("to", "To: after event", to, setTo)}
        <Button type="submit" className="button button-primary">
          Compare
        </Button>
      </form>
      <div aria-live="polite" className="audit-diff-result">
        {diff.isFetching ? <p>Comparing…</p> : null}
        {answer && answer.status !== 1 ? (
          <p role="alert" className="audit-error">
            {answer.message}
          </p>
        ) : null}
        {data && asked && !diff.isFetching ? (
          <p className="audit-diff-count">
            {data.changes.length === 0 ? "Nothing changed" : `${data.changes.length} ${data.changes.length === 1 ? "field" : "fields"} changed`} between event {asked.fromPosition} and event{" "}
            {asked.toPosition} ({data.events.length} {data.events.length === 1 ? "event" : "events"} in between).
          </p>
        ) : null}
      </div>
      {data && data.changes.length > 0 ? (
        <div className="table-scroll" role="region" aria-label="Changed fields" tabIndex={0}>
          <table className="data-table audit-diff">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Change</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {data.changes.map((change) => {
                const kind = diffKindView(change.kind);
                return (
                  <tr key={change.path} className={kind.className} data-kind={change.kind} data-path={change.path}>
                    <th scope="row">
                      <code>{change.path}</code>
                    </th>
                    <td className="audit-change-kind">
                      <span aria-hidden="true" className="audit-change-icon">
                        {kind.icon}
                      </span>{" "}
                      {kind.word}
                    </td>
                    <td className="audit-value">{change.kind === "added" ? "—" : presentValue(change.before)}</td>
                    <td className="audit-value">{change.kind === "removed" ? "—" : presentValue(change.after)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
};

export const OrderReplayScreen = ({ orderId }: { orderId: string }) => {
  const history = useOrderHistory(orderId);
  const answer = history.data;
  const events = dataOf(answer);
  return (
    <section className="page audit-replay" aria-labelledby="audit-replay-title">
      <div className="page-header">
        <h1 id="audit-replay-title" className="page-title">
          Order {orderId}: replay
        </h1>
        <ExportButton
          label="Export history"
          fileName={`order-${orderId}.jsonl`}
          endpoint={AUDIT.exportOrderLog}
          call={() => ({ params: { orderId } })}
          isDisabled={!events || events.length === 0}
        />
      </div>
      <OrderIdBox initial={orderId} />
      {history.isPending ? <p role="status">Loading the order's events…</p> : null}
      {answer && answer.status !== 1 ? (
        <p role="alert" className="audit-error">
          {answer.message}
        </p>
      ) : null}
      {events && events.length === 0 ? <p role="status">This order has no events.</p> : null}
      {events && events.length > 0 ? <Replay orderId={orderId} events={events} /> : null}
    </section>
  );
};
