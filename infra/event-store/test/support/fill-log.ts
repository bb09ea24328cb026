import type { SqlDriver } from "../../src/sql/sql-event-store.ts";

/*
 * A large log for the chain's scale test and P13 (issue 14): `streams` order-like streams of
 * `perStream` events each (a status change with its actor, about 400 bytes of data and metadata),
 * appended through es_append itself, so every hash is the one the product computes; a hundred
 * streams per statement. The global chain is left to es_seal, as in the product.
 */
export const fillLog = async (driver: Pick<SqlDriver, "query">, streams: number, perStream: number, { workers = 2 }: { workers?: number } = {}): Promise<void> => {
  const perStatement = 100;
  let next = 1;
  // Statements on `workers` connections at once: es_append hashes in the server, so a second
  // connection keeps the second core busy. Streams are disjoint; the seal orders the chain later.
  const worker = async () => {
    for (let first = next; first <= streams; first = next) {
      next = first + perStatement;
      const last = Math.min(streams, first + perStatement - 1);
      await driver.query(
        `select count(*) from generate_series($1::int, $2::int) s, lateral es_append('order-' || (1000000 + s)::text, 0,
           (select jsonb_agg(jsonb_build_object(
               'id', gen_random_uuid(), 'type', 'OrderStatusChanged', 'v', 1,
               'data', jsonb_build_object('orderId', (1000000 + s)::text, 'from', 'New', 'to', 'Pending', 'n', i),
               'metadata', jsonb_build_object(
                 'actor', jsonb_build_object('kind', 'staff', 'id', 'a19e44', 'name', 'Jonas Petrauskas', 'role', 'Team'),
                 'correlationId', gen_random_uuid(), 'requestIp', '203.0.113.24', 'occurredAt', now()))
             order by i) from generate_series(1, $3::int) i))`,
        [first, last, perStream],
      );
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
};
