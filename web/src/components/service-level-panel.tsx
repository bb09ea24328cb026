import { durationText, easternTime, type AuditActor, type ServiceClockReading, type ServiceClockSegment } from "@etd/contract";
import { SERVICE_LEVELS } from "@etd/contract/endpoints";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { endpointQuery } from "../lib/endpoint-query.ts";
import "../styles/service-level.css";

/*
 * The "Service level" panel (issue 27, ADR 0036): why an order is due when it is. Time used
 * against time allowed (a meter, and the same in words), the clock's state, when it is due, the
 * policy version the order runs under, and each segment of its clock with the event and member
 * that started it. The order page shows it now, and reads it again whenever the order's read model
 * moves (the endpoint reads order_details, so the live feed refreshes it); the auditor's replay
 * shows it as of the moment on the slider. Shared by both features, so it lives here.
 */

const MINUTE = 60_000;

/** "OrderAssigned" → "Assigned", "OrderStatusChanged" → "Status changed", "DocumentUploaded" → "Document uploaded". */
export const eventWords = (type: string): string => {
  const words = type.replace(/^Order(?=[A-Z])/, "").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Who started a segment, as the audit names members: "Maria Santos (Manager)". */
const actorText = (actor: AuditActor): string => (actor.role ? `${actor.name} (${actor.role})` : actor.name);

const KIND_LABELS = { standard: "Standard", priority: "Priority", future: "Future order" } as const;

const STATE_LABELS: Record<ServiceClockReading["state"], string> = {
  running: "Running",
  paused: "Paused",
  stopped: "Stopped",
  met: "Met",
  waiting: "Waiting for the processing date",
};

/** The state in a word or two; a clock met after its time says so, so a glance never reads it as on time. */
export const stateLabel = (clock: Pick<ServiceClockReading, "state" | "leftMs">): string =>
  clock.state === "met" && clock.leftMs < 0 ? "Met late" : STATE_LABELS[clock.state];

const Moment = ({ iso }: { readonly iso: string }) => <time dateTime={iso}>{easternTime(iso)}</time>;

/** One segment in a sentence: "Running from … to … (1 h counted), started by Maria Santos (Manager): Assigned". */
const SegmentLine = ({ segment }: { readonly segment: ServiceClockSegment }) => {
  const cause = `started by ${actorText(segment.actor)}: ${eventWords(segment.eventType)}`;
  const until = segment.to === null ? " to now" : <> to <Moment iso={segment.to} /></>;
  const spanned = Date.parse(segment.to ?? "") - Date.parse(segment.from);
  switch (segment.state) {
    case "running":
      return (
        <>
          Running from <Moment iso={segment.from} />
          {until} ({durationText(segment.countedMs)} counted), {cause}
        </>
      );
    case "paused":
      return (
        <>
          Paused{segment.to === null ? "" : ` ${durationText(spanned)}`} in {segment.status || "a waiting status"}, from <Moment iso={segment.from} />
          {until}, {cause}
        </>
      );
    case "stopped":
      return (
        <>
          Stopped in {segment.status || "a finished status"} from <Moment iso={segment.from} />
          {until}, {cause}
        </>
      );
    case "met":
      return (
        <>
          Met at <Moment iso={segment.from} />, {cause}
        </>
      );
    case "waiting":
      return (
        <>
          Waiting for the processing date from <Moment iso={segment.from} />
          {until} (not counted), {cause}
        </>
      );
  }
};

/** When it is due, or why it is not counting down. */
const dueLine = (clock: ServiceClockReading): string => {
  const left = clock.leftMs > 0 ? `${durationText(clock.leftMs)} left` : `overdue ${durationText(clock.leftMs)}`;
  switch (clock.state) {
    case "running":
    case "waiting":
      return clock.dueAt === null ? left : `Due ${easternTime(clock.dueAt)}: ${clock.leftMs > 0 ? `in ${durationText(clock.leftMs)}` : `overdue ${durationText(clock.leftMs)}`}.`;
    case "paused":
      return `Not counting while the order waits on others: ${left}.`;
    case "stopped":
      return `Not counting while the order is finished another way: ${left} if it comes back.`;
    case "met":
      return clock.leftMs >= 0 ? "Met: the document was uploaded within the time allowed." : `Met late: the document was uploaded ${durationText(clock.leftMs)} after the time allowed.`;
  }
};

const Reading = ({ clock, id, headingLevel }: { readonly clock: ServiceClockReading; readonly id: string; readonly headingLevel: 2 | 3 }) => {
  const overdue = clock.leftMs < 0;
  const Subheading = headingLevel === 2 ? "h3" : "h4";
  return (
    <>
      <dl className="service-level-facts">
        <div>
          <dt>State</dt>
          <dd data-clock-state={clock.state}>{stateLabel(clock)}</dd>
        </div>
        <div>
          <dt>Service level</dt>
          <dd>
            {KIND_LABELS[clock.kind]}, policy version {clock.policyVersion}
            {clock.policyVersion === 0 ? " (the default)" : ""}
          </dd>
        </div>
      </dl>
      <div className="service-level-meter" data-overdue={overdue ? "true" : "false"}>
        <label htmlFor={`${id}-meter`}>Time used</label>
        <meter id={`${id}-meter`} min={0} max={clock.allowedMs} low={clock.allowedMs * 0.75} high={clock.allowedMs} optimum={0} value={Math.min(clock.usedMs, clock.allowedMs)} aria-describedby={`${id}-used`} />
        <p id={`${id}-used`} className="service-level-used">
          {durationText(clock.usedMs)} used of {durationText(clock.allowedMs)} allowed
        </p>
      </div>
      <p className="service-level-due" data-overdue={overdue ? "true" : "false"}>
        {dueLine(clock)}
      </p>
      <Subheading id={`${id}-segments`} className="service-level-segments-title">
        How the time was counted
      </Subheading>
      <ol className="service-level-segments" aria-labelledby={`${id}-segments`}>
        {clock.segments.map((segment) => (
          <li key={`${segment.from}-${segment.state}`} data-state={segment.state}>
            <SegmentLine segment={segment} />
          </li>
        ))}
      </ol>
    </>
  );
};

/**
 * An order's service level, now (`asOf` absent) or as of a moment. `headingLevel` fits the page it
 * sits in: a section of the order page (2), a part of the auditor's replay card (3).
 */
export const ServiceLevelPanel = ({ orderId, asOf, headingLevel = 2 }: { readonly orderId: string; readonly asOf?: string | undefined; readonly headingLevel?: 2 | 3 }) => {
  const id = useId();
  const reading = useQuery({
    ...endpointQuery(SERVICE_LEVELS.getServiceClock, { params: { orderId }, query: asOf === undefined ? {} : { asOf } }),
    // A past moment's clock never changes; the clock now does as time passes, so a running one is read again each minute.
    staleTime: asOf === undefined ? 0 : Infinity,
    refetchInterval: (query) => (asOf === undefined && query.state.data?.data?.clock?.state === "running" ? MINUTE : false),
  });
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const answer = reading.data;
  return (
    <section className="record-section order-section service-level" aria-labelledby={`${id}-title`} data-section="service-level" aria-busy={reading.isFetching}>
      <Heading id={`${id}-title`}>
        Service level
        {asOf === undefined ? "" : (
          <>
            {" "}
            as of <Moment iso={asOf} />
          </>
        )}
      </Heading>
      {reading.isPending ? (
        <p role="status">Loading the service level…</p>
      ) : reading.isError ? (
        <p role="alert">{reading.error.message}</p>
      ) : answer === undefined || answer.status !== 1 || !answer.data ? (
        <p role="alert">{answer?.message ?? "The service level could not be loaded."}</p>
      ) : answer.data.clock === null ? (
        <p>The order had not been paid by then: no clock yet.</p>
      ) : (
        <Reading clock={answer.data.clock} id={id} headingLevel={headingLevel} />
      )}
    </section>
  );
};
