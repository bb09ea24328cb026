import { stageAfter, type MailEvent, type MailProvider, type MailPurpose, type MailTransport, type OrderId } from "@etd/events";

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

const withReport = (state: MailState, providerEventId: string, reported: "delivered" | "bounced" | "complained"): MailState => ({
  ...state,
  stage: stageAfter(state.stage, reported),
  reports: new Set([...state.reports, providerEventId]),
  retryAt: undefined,
});

export const evolveMail = (state: MailState, event: MailEvent): MailState => {
  switch (event.type) {
    case "MailQueued": {
      const { data } = event;
      return {
        ...state,
        stage: stageAfter<MailStage>(state.stage, "queued"),
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
      return { ...state, stage: stageAfter<MailStage>(state.stage, "sent"), transport: event.data.transport, sent: true };
    case "MailFailed":
      return { ...state, stage: stageAfter<MailStage>(state.stage, "failed"), retryAt: event.data.retryAt };
    case "MailOutcomeUnknown":
      return { ...state, stage: stageAfter<MailStage>(state.stage, "unknown") };
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
