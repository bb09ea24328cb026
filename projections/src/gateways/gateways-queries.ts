import type { Query } from "@etd/event-store";
import type { PaymentGatewayRow } from "@etd/contract";
import { GATEWAY_TABLES } from "./gateways-projection.ts";

/*
 * GET /admin/payment-gateways (ADMIN-2). 000 §3 gives a gateway `is_active` and
 * `is_secondary_domain`, so the list holds one entry per gateway per domain: the primary
 * domain's selector shows the entries with is_secondary_domain 0, the secondary's those with 1,
 * and each sees which gateway is active for its own domain. `id` is what
 * payment-gateway-setting takes back as `gatewayDetails.gatewayId`.
 */

/** One entry per gateway per domain, as the wire contract declares it. */
export type { PaymentGatewayRow } from "@etd/contract";

/** Primary domain's entries first, then the secondary's; gateways in the order they were registered. */
export const paymentGateways = async (query: Query): Promise<PaymentGatewayRow[]> => {
  const rows = await query(
    `select g.gateway_id, g.gateway_name, d.is_secondary_domain, (s.gateway_id is not null) as is_active
       from ${GATEWAY_TABLES.gateways} g
      cross join (values ('primary', 0), ('secondary', 1)) as d(domain, is_secondary_domain)
       left join ${GATEWAY_TABLES.selections} s on s.domain = d.domain and s.gateway_id = g.gateway_id
      order by d.is_secondary_domain, g.registered_at, g.gateway_id`,
  );
  return rows.map((row) => ({
    id: String(row.gateway_id),
    gateway_name: String(row.gateway_name),
    is_active: row.is_active === true ? "1" : "0",
    is_secondary_domain: Number(row.is_secondary_domain) === 1 ? 1 : 0,
  }));
};
