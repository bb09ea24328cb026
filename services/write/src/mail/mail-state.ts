import type { MailEvent, MailProvider, MailPurpose, MailTransport, OrderId } from "@etd/events";

/*
 * One mail as its stream tells it. `stage` is what Email History shows; a later delivery report
 * never moves it back (a complaint after a delivery stays a complaint).
 */

export type MailStage = "none" | "queued" | "sent" | "failed" | "unknown" | "delivered" | "bounced" | "complained";

export interface MailState {
  readonly stage: MailStage;
  readonly orderId: OrderId | undefined;
  readonly purpose: MailPurpose | undefined;
  readonly provider: MailProvider | undefined;
  readonly transport: MailTransport | undefined;
  /** The last attempt recorded (0 before the first). */
  readonly attempt: number;
  /** Whether the last attempt's acceptance is recorded. */
  readonly sent: boolean;
  /** When the next automatic attempt is due, while one is. */
  readonly retryAt: string | undefined;
  /** Staff asked for another attempt that has not been queued yet. */
  readonly retryRequested: boolean;
  /** The providers' report ids already recorded. */
  readonly reports: ReadonlySet<string>;
}

export const initialMailState: MailState = {
  stage: "none",
  orderId: undefined,
  purpose: undefined,
  provider: undefined,
  transport: undefined,
  attempt: 0,
  sent: false,
  retryAt: undefined,
  retryRequested: false,
  reports: new Set(),
};

const REPORT_RANK: Partial<Record<MailStage, number>> = { delivered: 1, bounced: 2, complained: 3 };

/** A report's stage, unless the mail already stands at a graver one. */
const afterReport = (current: MailStage, reported: "delivered" | "bounced" | "complained"): MailStage =>
  (REPORT_RANK[current] ?? 0) > REPORT_RANK[reported]! ? current : reported;

const withReport = (state: MailState, providerEventId: string, reported: "delivered" | "bounced" | "complained"): MailState => ({
  ...state,
  stage: afterReport(state.stage, reported),
  reports: new Set([...state.reports, providerEventId]),
  retryAt: undefined,
});

export const evolveMail = (state: MailState, event: MailEvent): MailState => {
  switch (event.type) {
    case "MailQueued": {
      const { data } = event;
      return {
        ...state,
        // A late report of an earlier attempt keeps its stage; a new attempt is queued otherwise.
        stage: REPORT_RANK[state.stage] === undefined ? "queued" : state.stage,
        orderId: data.orderId,
        purpose: data.purpose,
        provider: data.provider,
        transport: data.transport,
        attempt: data.attempt,
        sent: false,
        retryAt: undefined,
        retryRequested: false,
      };
    }
    case "MailSent":
      return { ...state, stage: REPORT_RANK[state.stage] === undefined ? "sent" : state.stage, transport: event.data.transport, sent: true };
    case "MailFailed":
      return { ...state, stage: REPORT_RANK[state.stage] === undefined ? "failed" : state.stage, retryAt: event.data.retryAt };
    case "MailOutcomeUnknown":
      return { ...state, stage: REPORT_RANK[state.stage] === undefined ? "unknown" : state.stage };
    case "MailDelivered":
      return withReport(state, event.data.providerEventId, "delivered");
    case "MailBounced":
      return withReport(state, event.data.providerEventId, "bounced");
    case "MailComplained":
      return withReport(state, event.data.providerEventId, "complained");
    case "MailRetryRequested":
      return { ...state, retryRequested: true };
  }
};
