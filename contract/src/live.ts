import { READ_MODELS, type ReadModel } from "./vocabulary.ts";

/*
 * The messages of the live feed (GET /api/live, server-sent events), declared once: the projector
 * writes a change on the database's channel as each batch commits, the API passes it on as the
 * `change` event, and the web app reads it to refetch what moved (and read-your-writes waits on
 * the same channel).
 */

/**
 * A `change` event: which read model moved, to which log position; `promoted` when a rebuilt
 * version went live; `changed`, when the read model can tell, what in it changed (issue 28, P17):
 * for the queues the folders whose rows moved (a queue key; My Orders as `myOrder:<staffId>`), for
 * the order details the order ids. An empty list: the position moved and nothing shown changed (a
 * remark, for the queues). Absent: anything may have changed.
 */
export interface LiveChange {
  readonly projection: ReadModel;
  readonly position: string;
  readonly promoted?: boolean;
  readonly changed?: readonly string[];
}

/** The `hello` event that opens the feed: where each live read model stands now. */
export interface LiveHello {
  readonly positions: Partial<Record<ReadModel, string>>;
}

/**
 * The most a change names; more (a rebuild's catch-up, a batch of hundreds of orders) is announced
 * as "anything may have changed", which keeps the text well inside a notification's 8,000 bytes.
 */
export const MOST_CHANGED = 100;
const MOST_CHANGED_CHARS = 4_000;

/**
 * A change as the projector announces it. The name is any projection's (tests register their
 * own); a client ignores the names it does not know.
 */
export const liveChangeText = (projection: string, position: string, options: { readonly promoted?: true; readonly changed?: readonly string[] | undefined } = {}): string => {
  const { promoted, changed } = options;
  const named = changed !== undefined && changed.length <= MOST_CHANGED && changed.reduce((n, topic) => n + topic.length + 3, 0) <= MOST_CHANGED_CHARS;
  return JSON.stringify({ projection, position, ...(promoted ? { promoted } : {}), ...(named ? { changed } : {}) });
};

const isReadModel = (name: unknown): name is ReadModel => (READ_MODELS as readonly unknown[]).includes(name);

/** A `change` event's data, or undefined for anything this client does not know (a newer server's read model). */
export const parseLiveChange = (data: string): LiveChange | undefined => {
  try {
    const value = JSON.parse(data) as { projection?: unknown; position?: unknown; promoted?: unknown; changed?: unknown };
    if (!isReadModel(value.projection)) return undefined;
    const { changed } = value;
    const named = Array.isArray(changed) && changed.length <= MOST_CHANGED && changed.every((topic) => typeof topic === "string");
    return {
      projection: value.projection,
      position: typeof value.position === "string" ? value.position : "",
      ...(value.promoted === true ? { promoted: true } : {}),
      ...(named ? { changed } : {}),
    };
  } catch {
    return undefined;
  }
};
