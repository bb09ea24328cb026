import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "react-aria-components";
import { ORDERS } from "@etd/contract/endpoints";
import { announce } from "../../../components/ui/live-region.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi, refetchAfterCommand } from "../../../lib/api-client.ts";

/*
 * Take next (issue 27): the server gives the caller the most urgent unassigned order and says why;
 * the toast says it, and the order opens. At capacity the server refuses, and the toolbar says so
 * beside the button until a later press is answered otherwise.
 */

export interface TakeNext {
  readonly take: () => void;
  readonly busy: boolean;
  /** The last refusal (at capacity), shown beside the button. */
  readonly refusal: string | undefined;
}

export const useTakeNext = (openOrder: (orderId: string) => void): TakeNext => {
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const mutation = useMutation({
    mutationFn: () => callApi(ORDERS.takeNextOrder, {}),
    onSuccess: async (answer) => {
      announce(answer.message);
      if (answer.status !== 1) {
        setRefusal(answer.message);
        return toast.error(answer.message);
      }
      setRefusal(undefined);
      toast.success(answer.message);
      const orderId = answer.data?.orderId;
      if (!orderId) return;
      await refetchAfterCommand(queryClient, answer, ORDERS.takeNextOrder);
      openOrder(orderId);
    },
  });
  const { mutate, isPending } = mutation;
  return { take: () => !isPending && mutate(), busy: isPending, refusal };
};

/** The toolbar's button; `n` does the same (the queues' keyboard). */
export const TakeNextButton = ({ takeNext }: { takeNext: TakeNext }) => (
  <>
    {takeNext.refusal ? (
      <span className="take-next-refusal" id="take-next-refusal">
        {takeNext.refusal}
      </span>
    ) : null}
    <Button
      className="button button-primary"
      onPress={takeNext.take}
      isDisabled={takeNext.busy}
      aria-keyshortcuts="n"
      {...(takeNext.refusal ? { "aria-describedby": "take-next-refusal" } : {})}
    >
      Take next
    </Button>
  </>
);
