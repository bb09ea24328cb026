import type { OrderChangedAnswer } from "@etd/contract";
import type { Envelope } from "../../../lib/api-client.ts";

/*
 * The order page's commands (001 §7) are sent as their declarations say (@etd/contract/endpoints,
 * ORDERS and ORDER_PAGE). Decisive ones carry `expectedVersion`, the version the page shows (ADR
 * 0014): if the order moved on, the server changes nothing and answers OrderChangedAnswer.
 */

export type MailProviderChoice = "aws" | "sendgrid";

/** A refusal because the order changed since the page read it (HTTP 409, `data.changed`). */
export const changedAnswerOf = (answer: Envelope): OrderChangedAnswer | undefined => {
  const data = answer.data as Partial<OrderChangedAnswer> | null | undefined;
  return answer.status !== 1 && data?.changed === true && typeof data.version === "number" ? (data as OrderChangedAnswer) : undefined;
};
