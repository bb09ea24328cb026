import type { OrderChangedAnswer, OrderDetails } from "@etd/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "../../../components/ui/toast.tsx";
import type { Envelope } from "../../../lib/api-client.ts";
import { refetchAfterCommand } from "../../../lib/read-your-writes.ts";
import { changedAnswerOf } from "../api/order-commands.ts";
import { orderDetailsKey } from "../api/order-details-query.ts";

/** A refused decisive action, waiting for "Do it anyway" or "Cancel". */
export interface PendingRetry {
  readonly label: string;
  readonly changed: OrderChangedAnswer;
  readonly send: (version: number) => Promise<Envelope>;
}

/**
 * Runs the page's commands and shows what the server answered (its message as a toast). A
 * decisive one is sent with the version the page shows; when the server refuses it because the
 * order moved on (ADR 0014), nothing changed: the page reads the order again and keeps the
 * refusal (who changed what, when) for the "changed since you opened it" dialog, whose "Do it
 * anyway" sends the same action with the version the refusal named. After any command the read
 * models it changes are read again, waiting for its position (read-your-writes).
 */
export const useOrderCommands = (order: OrderDetails) => {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [retry, setRetry] = useState<PendingRetry | undefined>(undefined);

  const finish = async (label: string, answer: Envelope, send?: (version: number) => Promise<Envelope>): Promise<boolean> => {
    const changed = changedAnswerOf(answer);
    if (changed && send) {
      setRetry({ label, changed, send });
      await queryClient.invalidateQueries({ queryKey: orderDetailsKey(order.order_id) });
      return false;
    }
    toast.answer(answer);
    if (answer.status === 1) await refetchAfterCommand(queryClient, answer, ["queue", "order_details", "reports"]);
    return answer.status === 1;
  };

  const attempt = async (label: string, run: () => Promise<Envelope>, send?: (version: number) => Promise<Envelope>) => {
    setBusy(label);
    try {
      return await finish(label, await run(), send);
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
    run: (label: string, run: () => Promise<Envelope>) => attempt(label, run),
    /** A decisive command: sent with the page's version; refused and asked again when the order moved on. */
    decisive: (label: string, send: (version: number) => Promise<Envelope>) => attempt(label, () => send(order.version), send),
    /** "Do it anyway": the same action, with the version the refusal named. */
    retryAnyway: async () => {
      if (!retry) return false;
      setRetry(undefined);
      return attempt(retry.label, () => retry.send(retry.changed.version), retry.send);
    },
    cancelRetry: () => setRetry(undefined),
  };
};

export type OrderCommands = ReturnType<typeof useOrderCommands>;
