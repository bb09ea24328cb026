import type { Query } from "@etd/event-store";
import type { LandingDomain } from "@etd/events";
import type { ProjectedEvent, Projection, TableName } from "../engine/projection.ts";

/*
 * Gateway Setting (ADMIN-2): the gateways staff can choose from, and the one chosen per customer
 * domain. The choice is one row per domain, so "exactly one active gateway per domain" (000 §4)
 * holds by construction once a domain has been chosen for.
 */

export const GATEWAY_TABLES = {
  gateways: "payment_gateways",
  selections: "payment_gateway_selections",
} as const;

const migrate = async (query: Query, table: TableName): Promise<void> => {
  await query(`
    create table ${table(GATEWAY_TABLES.gateways)} (
      gateway_id text primary key,
      gateway_name text not null,
      registered_at timestamptz not null
    )`);
  await query(`
    create table ${table(GATEWAY_TABLES.selections)} (
      domain text primary key,
      gateway_id text not null,
      selected_at timestamptz not null
    )`);
};

interface Registration {
  readonly name: string;
  readonly at: string;
}

interface Selection {
  readonly gatewayId: string;
  readonly at: string;
}

/** Both kinds of write are "last one wins" per key, so a batch needs no reads. */
const apply = async (events: readonly ProjectedEvent[], query: Query, table: TableName): Promise<void> => {
  const registered = new Map<string, Registration>();
  const selected = new Map<LandingDomain, Selection>();
  for (const { event } of events) {
    if (event.type === "GatewayRegistered") {
      registered.set(event.data.gatewayId, { name: event.data.gatewayName, at: event.metadata.occurredAt });
    } else if (event.type === "GatewaySelected") {
      selected.set(event.data.domain, { gatewayId: event.data.gatewayId, at: event.metadata.occurredAt });
    }
  }
  if (registered.size > 0) {
    const entries = [...registered];
    await query(
      `insert into ${table(GATEWAY_TABLES.gateways)} (gateway_id, gateway_name, registered_at)
       select * from unnest($1::text[], $2::text[], $3::timestamptz[])
       on conflict (gateway_id) do update set gateway_name = excluded.gateway_name`,
      [entries.map(([id]) => id), entries.map(([, r]) => r.name), entries.map(([, r]) => r.at)],
    );
  }
  if (selected.size > 0) {
    const entries = [...selected];
    await query(
      `insert into ${table(GATEWAY_TABLES.selections)} (domain, gateway_id, selected_at)
       select * from unnest($1::text[], $2::text[], $3::timestamptz[])
       on conflict (domain) do update set gateway_id = excluded.gateway_id, selected_at = excluded.selected_at`,
      [entries.map(([domain]) => domain), entries.map(([, s]) => s.gatewayId), entries.map(([, s]) => s.at)],
    );
  }
};

export const gatewaysProjection: Projection = {
  name: "gateways",
  version: 1,
  tables: Object.values(GATEWAY_TABLES),
  migrate,
  apply,
};
