import type { QueryClient, QueryFunctionContext } from "@tanstack/react-query";
import type { EndpointDeclaration } from "@etd/contract/endpoints";
import type { Envelope } from "./api-client.ts";
import { isProjection, PROJECTIONS, queryKeys, type Projection } from "./query-keys.ts";

/*
 * Read-your-writes (DESIGN §1, issue 10 item 6), per tab and per read model. A command answers
 * the log position of its last event; until a read model is known to have applied it, a query
 * that reads that read model sends it as `X-Read-After`, and the server holds the answer until
 * that read model (only that one: Endpoint.reads) has caught up.
 *
 * - Only this tab's commands count: the state belongs to the tab's QueryClient (one per page
 *   load), never to a module, so another tab's or a test's client starts clean.
 * - Only the read models the command changes wait: those it refreshes after it ran (the same
 *   list that it invalidates, see `refetchAfterCommand`), and only until the live feed says the
 *   read model has applied the position; after that, queries go out without the header.
 */

const POSITION = /^\d+\.\d+$/;

/** Log positions "tx.seq", compared as the pair of integers they are. */
export const comparePositions = (a: string, b: string): number => {
  const [aTx, aSeq] = a.split(".").map(BigInt) as [bigint, bigint];
  const [bTx, bSeq] = b.split(".").map(BigInt) as [bigint, bigint];
  return aTx === bTx ? (aSeq === bSeq ? 0 : aSeq < bSeq ? -1 : 1) : aTx < bTx ? -1 : 1;
};

export interface ReadYourWrites {
  /** A command of this tab answered `position`; `projections` are the read models it changes. */
  wrote(position: unknown, projections: readonly Projection[]): void;
  /** The live feed says `projection` has applied everything up to `position`. */
  applied(projection: Projection, position: string): void;
  /** What a query reading `projections` must send as X-Read-After, or undefined: nothing to wait for. */
  readAfter(projections: readonly Projection[]): string | undefined;
  /** Sign-out: the next member starts with nothing to wait for. */
  forget(): void;
}

export const createReadYourWrites = (): ReadYourWrites => {
  /** Per read model, the latest position of this tab's commands that it is not known to have applied. */
  const pending = new Map<Projection, string>();
  const later = (a: string | undefined, b: string) => (a === undefined || comparePositions(b, a) > 0 ? b : a);
  return {
    wrote: (position, projections) => {
      if (typeof position !== "string" || !POSITION.test(position)) return;
      for (const projection of projections) pending.set(projection, later(pending.get(projection), position));
    },
    applied: (projection, position) => {
      const waiting = pending.get(projection);
      if (waiting !== undefined && POSITION.test(position) && comparePositions(position, waiting) >= 0) pending.delete(projection);
    },
    readAfter: (projections) => {
      let latest: string | undefined;
      for (const projection of projections) {
        const waiting = pending.get(projection);
        if (waiting !== undefined) latest = later(latest, waiting);
      }
      return latest;
    },
    forget: () => pending.clear(),
  };
};

const perClient = new WeakMap<QueryClient, ReadYourWrites>();

/** The read-your-writes state of the tab that owns this query client. */
export const readYourWritesOf = (client: QueryClient): ReadYourWrites => {
  let state = perClient.get(client);
  if (!state) {
    state = createReadYourWrites();
    perClient.set(client, state);
  }
  return state;
};

/**
 * The request options of a query function: its abort signal and, when this tab has written to
 * the read model the query reads (its key's first element, see query-keys.ts), the position to
 * read after. A key that names no read model waits for all of them.
 */
export const queryRequest = ({ client, queryKey, signal }: Pick<QueryFunctionContext, "client" | "queryKey" | "signal">) => {
  const readAfter = readYourWritesOf(client).readAfter(isProjection(queryKey[0]) ? [queryKey[0]] : PROJECTIONS);
  return readAfter === undefined ? { signal } : { signal, readAfter };
};

/**
 * After a command this tab ran: the read models it changes (its declaration's `changes`) wait for
 * its position, and every query reading them is fetched again (so what the screen shows next
 * includes the change). Answers that refused part of the work may still carry a position: whatever
 * was done counts.
 */
export const refetchAfterCommand = async (client: QueryClient, answer: Envelope, command: Pick<EndpointDeclaration, "changes">): Promise<void> => {
  const projections = command.changes ?? [];
  readYourWritesOf(client).wrote((answer.data as { position?: unknown } | null | undefined)?.position, projections);
  await Promise.all(projections.map((projection) => client.invalidateQueries({ queryKey: queryKeys[projection] })));
};
