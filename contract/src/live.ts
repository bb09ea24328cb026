import { READ_MODELS, type ReadModel } from "./vocabulary.ts";

/*
 * The messages of the live feed (GET /api/live, server-sent events), declared once: the projector
 * writes a change on the database's channel as each batch commits, the API passes it on as the
 * `change` event, and the web app reads it to refetch what moved (and read-your-writes waits on
 * the same channel).
 */

/** A `change` event: which read model moved, to which log position; `promoted` when a rebuilt version went live. */
export interface LiveChange {
  readonly projection: ReadModel;
  readonly position: string;
  readonly promoted?: boolean;
}

/** The `hello` event that opens the feed: where each live read model stands now. */
export interface LiveHello {
  readonly positions: Partial<Record<ReadModel, string>>;
}

/**
 * A change as the projector announces it. The name is any projection's (tests register their
 * own); a client ignores the names it does not know.
 */
export const liveChangeText = (projection: string, position: string, promoted?: true): string =>
  JSON.stringify(promoted ? { projection, position, promoted } : { projection, position });

const isReadModel = (name: unknown): name is ReadModel => (READ_MODELS as readonly unknown[]).includes(name);

/** A `change` event's data, or undefined for anything this client does not know (a newer server's read model). */
export const parseLiveChange = (data: string): LiveChange | undefined => {
  try {
    const value = JSON.parse(data) as { projection?: unknown; position?: unknown; promoted?: unknown };
    if (!isReadModel(value.projection)) return undefined;
    return { projection: value.projection, position: typeof value.position === "string" ? value.position : "", ...(value.promoted === true ? { promoted: true } : {}) };
  } catch {
    return undefined;
  }
};
