import type { SqlDriver } from "@etd/event-store";

/*
 * A large log of valid order events for the relay's tests and P11 (issue 15): `orders` orders of
 * `perOrder` status changes each (New to Pending, then back and forth) with their staff actor,
 * appended through es_append (the product's own append), a hundred orders per statement.
 * Answers the order ids.
 */
export const fillOrders = async (driver: Pick<SqlDriver, "query">, orders: number, perOrder: number, { firstId = 7_000_000 }: { firstId?: number } = {}): Promise<string[]> => {
  const perStatement = 100;
  for (let first = 0; first < orders; first += perStatement) {
    const last = Math.min(orders, first + perStatement) - 1;
    await driver.query(
      `select count(*) from generate_series($1::int, $2::int) s, lateral es_append('order-' || ($4::int + s)::text, 0,
         (select jsonb_agg(jsonb_build_object('id', gen_random_uuid(), 'type', 'OrderStatusChanged', 'v', 1,
             'data', jsonb_build_object('orderId', ($4::int + s)::text,
               'from', case when i = 1 then 'New' when i % 2 = 0 then 'Pending' else 'Awaiting' end,
               'to', case when i % 2 = 0 then 'Awaiting' else 'Pending' end),
             'metadata', jsonb_build_object('actor', jsonb_build_object('kind', 'staff', 'id', 'a19e44', 'name', 'Jonas Petrauskas', 'role', 'Team'),
               'correlationId', gen_random_uuid(), 'occurredAt', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
           order by i) from generate_series(1, $3::int) i))`,
      [first, last, perOrder, firstId],
    );
  }
  return Array.from({ length: orders }, (_, i) => String(firstId + i));
};
