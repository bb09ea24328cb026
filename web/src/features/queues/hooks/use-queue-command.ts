import type { EndpointDeclaration } from "@etd/contract/endpoints";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../lib/api-client.ts";
import { refetchAfterCommand } from "../../../lib/read-your-writes.ts";
import { announce } from "../../../components/ui/live-region.tsx";
import { toast } from "../../../components/ui/toast.tsx";

/** A bulk command to run: its endpoint's declaration (what it changes) and the call itself. */
interface QueueCommand {
  readonly endpoint: Pick<EndpointDeclaration, "changes">;
  readonly run: () => Promise<Envelope>;
}

/**
 * Runs one bulk command (QUEUE-8..11) and shows what the server answered: its message as a toast
 * (success or error, as the envelope says: a lost race names who won), also said in the screen's
 * live region for whoever works by keyboard (issue 16 C). Then the read models its declaration
 * says it changes (the lists and counts among them) are read again, so rows leave a list only
 * when the server says they did (no optimistic state; the reads wait for the command's
 * position). The mutation stays pending until the lists are fresh, so a second press cannot act
 * on rows that are already gone.
 */
export const useQueueCommand = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (command: QueueCommand) => command.run(),
    onSuccess: async (answer, command) => {
      toast.answer(answer);
      announce(answer.message);
      await refetchAfterCommand(queryClient, answer, command.endpoint);
    },
    onError: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      toast.error(message);
      announce(message);
    },
  });
};
