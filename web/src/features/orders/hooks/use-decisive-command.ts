import type { OrderChangedAnswer, OrderDetails } from "@etd/contract";
import type { EndpointDeclaration } from "@etd/contract/endpoints";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi, refetchAfterCommand, type CallOf, type Envelope } from "../../../lib/api-client.ts";
import { changedAnswerOf } from "../utils/order-answers.ts";
import { orderDetailsQuery } from "../utils/order-queries.ts";

/** A command as the page sends it: its declaration (what it changes), and the call at a version of the order. */
interface Sending {
  readonly endpoint: Pick<EndpointDeclaration, "changes">;
  readonly send: (version: number) => Promise<Envelope>;
}

/** A refused decisive action, waiting for "Do it anyway" or "Cancel". */
export interface PendingRetry extends Sending {
  readonly label: string;
  readonly changed: OrderChangedAnswer;
}

/**
 * Runs the page's commands and shows what the server answered (its message as a toast). A
 * decisive one is sent with the version the page shows; when the server refuses it because the
 * order moved on (ADR 0014), nothing changed: the page reads the order again and keeps the
 * refusal (who changed what, when) for the "changed since you opened it" dialog, whose "Do it
 * anyway" sends the same action with the version the refusal named. After any command the read
 * models its declaration says it changes are read again, waiting for its position
 * (read-your-writes).
 */
export const useOrderCommands = (order: OrderDetails) => {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [retry, setRetry] = useState<PendingRetry | undefined>(undefined);

  const finish = async (label: string, answer: Envelope, command: Sending, decisive: boolean): Promise<boolean> => {
    const changed = changedAnswerOf(answer);
    if (changed && decisive) {
      setRetry({ label, changed, endpoint: command.endpoint, send: command.send });
      await queryClient.invalidateQueries({ queryKey: orderDetailsQuery(order.order_id).queryKey });
      return false;
    }
    toast.answer(answer);
    if (answer.status === 1) await refetchAfterCommand(queryClient, answer, command.endpoint);
    return answer.status === 1;
  };

  const attempt = async (label: string, command: Sending, version: number, decisive: boolean) => {
    setBusy(label);
    try {
      return await finish(label, await command.send(version), command, decisive);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
      return false;
    } finally {
      setBusy(undefined);
    }
  };

  return {
    busy,
    retry,
    /** A command that does not depend on what the order is now (a mail, transaction details). */
    run: <E extends EndpointDeclaration>(label: string, endpoint: E, call: CallOf<E>) =>
      attempt(label, { endpoint, send: () => callApi(endpoint, call) }, order.version, false),
    /** A decisive command: sent with the page's version; refused and asked again when the order moved on. */
    decisive: <E extends EndpointDeclaration>(label: string, endpoint: E, callAt: (version: number) => CallOf<E>) =>
      attempt(label, { endpoint, send: (version) => callApi(endpoint, callAt(version)) }, order.version, true),
    /** "Do it anyway": the same action, with the version the refusal named. */
    retryAnyway: async () => {
      if (!retry) return false;
      setRetry(undefined);
      return attempt(retry.label, retry, retry.changed.version, true);
    },
    cancelRetry: () => setRetry(undefined),
  };
};

export type OrderCommands = ReturnType<typeof useOrderCommands>;
