import type { LiveChange } from "@etd/contract";

/*
 * Which queries a live change may have made stale, and refetching them at most once an interval
 * (issue 28, P17). A change says which read model moved and, when the read model can tell, what in
 * it changed: the folders whose rows moved, the orders whose page changed. A query refetches only
 * when it shows one of those; a remark, which changes no queue row, refetches no queue at all.
 * Many changes close together (ten commands a second across a team) cost one refetch per interval.
 */

/** Every string in a query key, however deep (a key's last part is often its call's parameters). */
const stringsOf = (value: unknown): string[] => {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
};

/** Whether the query of this key (the query-key convention: its read model first) may show what the change changed. */
export const mayShowChange = (queryKey: readonly unknown[], change: LiveChange, viewerId: string): boolean => {
  if (queryKey[0] !== change.projection) return false;
  const { changed } = change;
  if (changed === undefined) return true;
  if (changed.length === 0) return false;
  switch (change.projection) {
    case "queue": {
      // A folder's list or search (queue-queries.ts): ["queue", "list" | "search", queueKey, …].
      const [, kind, folder] = queryKey;
      if ((kind === "list" || kind === "search") && typeof folder === "string") return changed.includes(folder === "myOrder" ? `myOrder:${viewerId}` : folder);
      // The counts, the future months, Order Processed: every folder's figures.
      return true;
    }
    case "order_details": {
      // Each order page query names its order (its id, or a path holding it).
      const named = stringsOf(queryKey.slice(1));
      return changed.some((orderId) => named.some((text) => text.includes(orderId)));
    }
    default:
      return true;
  }
};

/** Changes waiting for the next refetch beyond which everything waiting is refetched anyway. */
const MOST_WAITING = 200;

/**
 * The app's timing: a screen refetches at most once a second however many changes arrive, and
 * the first refetch after a quiet interval waits a random part of half a second. Every open page
 * hears a change at the same moment; without the spread, 200 of them asked the API at once and a
 * command that came in the burst waited for it (p95 362 ms against a p50 of 7 ms, bench:fanout).
 */
export interface RefetchTiming {
  readonly intervalMs: number;
  readonly spreadMs: number;
  /** In [0, 1): where in the spread this refetch falls. */
  readonly random?: () => number;
}

export const APP_REFETCH_TIMING: RefetchTiming = { intervalMs: 1_000, spreadMs: 500 };

export interface RefetchScheduler {
  /** Takes a change in; its queries refetch within the spread, or at the end of the interval if one refetch was just made. */
  readonly add: (change: LiveChange) => void;
  readonly stop: () => void;
}

/**
 * Refetches the queries the changes may have made stale: within the spread for the first change
 * after a quiet interval, then at most once per `intervalMs`, with every change that came meanwhile.
 */
export const refetchScheduler = (
  refetch: (isStale: (queryKey: readonly unknown[]) => boolean) => void,
  viewerId: string,
  { intervalMs, spreadMs, random = Math.random }: RefetchTiming,
): RefetchScheduler => {
  let waiting: LiveChange[] = [];
  let lastAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    lastAt = Date.now();
    const changes = waiting;
    waiting = [];
    // Too many to match one by one: every query of the read models they name.
    const everything = changes.length > MOST_WAITING;
    refetch((queryKey) => changes.some((change) => (everything ? queryKey[0] === change.projection : mayShowChange(queryKey, change, viewerId))));
  };

  return {
    add: (change) => {
      // Nothing changed (a remark, to the queues): it can make no query stale, nor count towards
      // "too many to match", where 60 remarks' messages from six read models once refetched the
      // queues they had said were unchanged.
      if (change.changed?.length === 0) return;
      waiting.push(change);
      if (timer !== undefined) return;
      const wait = Math.max(lastAt + intervalMs - Date.now(), spreadMs * random());
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    stop: () => {
      clearTimeout(timer);
      timer = undefined;
      waiting = [];
    },
  };
};
