import { MAX_VIEWS_PER_STAFF, type OrderPresenceAnswer, type OrderViewer } from "@etd/contract";
import { toOrderId } from "@etd/contract/requests";
import type { Role } from "@etd/events";
import { migrateTables, type SqlDriver } from "@etd/event-store";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";

/*
 * Presence on the order page (issue 11, docs/decisions/0014-order-page.md): who else has this
 * order open now. Each open page says so every HEARTBEAT_MS; a page silent for three heartbeats
 * is gone, and a page that closes says `leaving` (fetch keepalive on pagehide).
 *
 * A table in the read database, not a map in this process: several API instances serve one
 * database, and a page's heartbeats may reach any of them. Times are the database's clock, the
 * one clock all instances share. Expired rows are deleted on every call (an indexed range delete
 * of a handful of rows), so no sweeper is needed.
 *
 * A view belongs to the member who first sent it: another member's heartbeat or leave with the
 * same view id changes nothing of it. A member holds at most MAX_VIEWS_PER_STAFF live views, so a
 * client cannot flood the table (checked in the statement, not under a lock: a burst of new views
 * at one instant may pass it by a few, which a flood limit can afford). A page that is leaving
 * is told nobody: who views an order is for those who are seen viewing it.
 */

export const HEARTBEAT_MS = 3000;
/** Three missed heartbeats: the page is gone. */
export const PRESENCE_TTL_MS = 3 * HEARTBEAT_MS;
/** The contract states the limit (the endpoint declares its 429 with it); the tests count up to it. */
export { MAX_VIEWS_PER_STAFF };

export const TOO_MANY_VIEWS = `You have more than ${MAX_VIEWS_PER_STAFF} order pages open. Please close some and try again.`;
export const VIEW_NOT_YOURS = "This page id belongs to another page. Please reload the page.";

/** One statement each: the drivers run one statement per query. */
export const PRESENCE_SQL: readonly string[] = [
  // Unlogged: who has a page open is lost in a crash anyway (the pages say so again within a
  // heartbeat), and a heartbeat then commits without waiting for the WAL to reach the disk.
  /* sql */ `create unlogged table if not exists order_presence (
    view_id text primary key,
    order_id text not null,
    staff_id text not null,
    name text not null,
    role text not null,
    since timestamptz not null,
    seen_at timestamptz not null
  )`,
  `create index if not exists order_presence_order on order_presence (order_id, seen_at)`,
  `create index if not exists order_presence_seen on order_presence (seen_at)`,
  `create index if not exists order_presence_staff on order_presence (staff_id)`,
];

/** Creates the table once per process. */
const ensureTable = (db: SqlDriver): Promise<void> => migrateTables(db, PRESENCE_SQL);

const TTL = `interval '${PRESENCE_TTL_MS} milliseconds'`;

export const orderPresenceHandlers = (deps: ApiDeps) => {
  // Started with the app (the handlers are built at start); the first call waits for it.
  let ready: Promise<void> | undefined;
  const table = () => (ready ??= ensureTable(deps.readDb).catch((error: unknown) => {
    ready = undefined;
    throw error;
  }));
  void table().catch(() => undefined);

  return {
    sendOrderPresence: async ({ input, user }) => {
      await table();
      const orderId = toOrderId(input.orderId);
      const { viewId } = input;
      const leaving = input.leaving === true;
      // One statement, one round trip (P9): expire silent pages (never the caller's, which this
      // statement may update), check the order exists (no rows for made-up ids), save or remove
      // the caller's page, and read the others. The sub-statements share one snapshot, so the
      // final select filters expired rows itself and never sees the caller's own row change.
      const [row] = await deps.readDb.query(
        `with expired as (
           delete from order_presence where seen_at < now() - ${TTL} and view_id <> $1
         ),
         target as (select exists (select 1 from order_details where order_id = $2) as found),
         owner as (select staff_id from order_presence where view_id = $1),
         saved as (
           insert into order_presence (view_id, order_id, staff_id, name, role, since, seen_at)
           select $1, $2, $3, $4, $5, now(), now()
            where not $7 and (select found from target)
              and (exists (select 1 from owner)
                   or (select count(*) from order_presence where staff_id = $3 and seen_at >= now() - ${TTL}) < $6)
           on conflict (view_id) do update
              set seen_at = now(), name = excluded.name, role = excluded.role, order_id = excluded.order_id,
                  since = case when order_presence.order_id = excluded.order_id then order_presence.since else now() end
            where order_presence.staff_id = excluded.staff_id
           returning view_id
         ),
         left_page as (
           delete from order_presence where $7 and view_id = $1 and staff_id = $3 and (select found from target)
         )
         select (select found from target) as found,
                (select staff_id from owner) as owner,
                (select count(*) from saved)::int as saved,
                coalesce((select jsonb_agg(jsonb_build_object('view_id', p.view_id, 'staff_id', p.staff_id, 'name', p.name,
                                                              'role', p.role, 'since', p.since) order by p.since, p.view_id)
                            from order_presence p
                           where not $7 and p.order_id = $2 and p.view_id <> $1 and p.seen_at >= now() - ${TTL}), '[]'::jsonb) as viewers`,
        [viewId, orderId, user.id, user.name, user.type, MAX_VIEWS_PER_STAFF, leaving],
      );
      if (row?.found !== true) return fail(404, `Order ${orderId} was not found.`);
      if (!leaving && row.saved === 0) {
        return row.owner !== null && row.owner !== user.id ? fail(409, VIEW_NOT_YOURS) : fail(429, TOO_MANY_VIEWS);
      }
      const others = row.viewers as { view_id: string; staff_id: string; name: string; role: Role; since: string }[];
      const viewers = others.map(
        (other): OrderViewer => ({
          viewId: other.view_id,
          staffId: other.staff_id,
          name: other.name,
          role: other.role,
          since: new Date(other.since).toISOString(),
        }),
      );
      return ok("Presence updated.", { viewers, heartbeatMs: HEARTBEAT_MS } satisfies OrderPresenceAnswer);
    },
  } satisfies Partial<Handlers>;
};
