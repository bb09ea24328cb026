import type { Query } from "@etd/event-store";
import { isErased, statusAfter, type AnyEvent, type OrderStatus, type ProcessingMode } from "@etd/events";
import type { ProjectedEvent, Projection, TableName } from "../engine/projection.ts";
import { monthOf } from "./day-ranges.ts";

/*
 * The country and processed-by reports (ADMIN-4, ADMIN-5) and the Order Processed list (ADMIN-7).
 *
 * One compact row per order, and totals kept incrementally per day and per month
 * (`grain` 'd' or 'm', `period` the day or the month's first day), so a report over any range
 * sums whole months plus the loose days at its ends (see day-ranges.ts) instead of counting a
 * million orders:
 *
 * - report_country_totals: orders per (period created, country, processing mode).
 * - report_country_due: orders per (created day, country, processing date). Most
 *   orders are due the day they are made, so this adds about one row per day and country; the
 *   query counts those due after `today` through an index on the processing date, so "future" is
 *   decided when asked, never stored.
 * - report_processed_totals: orders per (period of the last upload, member who uploaded last).
 *
 * Decisions where the specs are silent:
 * - A soft-deleted (or permanently deleted) order leaves the country counts, and comes back if
 *   it is restored: deleted orders are mistakes, duplicates or fraud, not sales of that country.
 * - The processed-by report and the Order Processed list count every order with a document,
 *   whatever its status now: they measure the work staff did. An order counts once, for the
 *   member who uploaded its document last and on that upload's day (DESIGN §4).
 * - Staff are shown by their current name (the staff stream renames them here too).
 * - A country is its citizenship_id, or its name when the site sent no id; the name shown is the
 *   last one seen for that country.
 * - Citizenship is what the customer typed (sealed in OrderPlaced since version 2, issue 25): a
 *   permanent delete blanks it in the order's row, and a spelling no remaining order gives leaves
 *   the names table (see forgetCountryNames). The erased order counted nowhere already: it is
 *   Deleted.
 */

export const REPORT_TABLES = {
  orders: "report_orders",
  countryNames: "report_country_names",
  countryTotals: "report_country_totals",
  countryDue: "report_country_due",
  processedTotals: "report_processed_totals",
  staffNames: "report_staff_names",
} as const;

/** The report's view of one order, as folded in memory during a batch. */
interface ReportOrder {
  readonly orderId: string;
  readonly createdAt: string;
  readonly citizenshipId: string | null;
  readonly citizenship: string | null;
  readonly countryKey: string;
  readonly processingMode: ProcessingMode;
  readonly processingDate: string;
  readonly status: OrderStatus;
  readonly processedById: string | null;
  readonly processedBy: string | null;
  readonly processedAt: string | null;
}

const migrate = async (query: Query, table: TableName): Promise<void> => {
  const t = (base: keyof typeof REPORT_TABLES) => table(REPORT_TABLES[base]);
  await query(`
    create table ${t("orders")} (
      order_id text primary key,
      created_at timestamptz not null,
      created_day date not null,
      citizenship_id text,
      citizenship text,
      country_key text not null,
      processing_mode text not null,
      processing_date date not null,
      status text not null,
      processed_by_id text,
      processed_by text,
      processed_at timestamptz,
      processed_day date
    )`);
  // A permanent delete looks up which orders still name a country.
  await query(`create index ${t("orders")}_country on ${t("orders")} (country_key)`);
  // The Order Processed list: newest upload first, with an optional range on the upload time.
  await query(`
    create index ${t("orders")}_processed on ${t("orders")} (processed_at desc, order_id desc)
    where processed_at is not null`);
  await query(`
    create table ${t("countryNames")} (
      country_key text primary key,
      citizenship_id text,
      citizenship text
    )`);
  await query(`
    create table ${t("countryTotals")} (
      grain "char" not null,
      period date not null,
      country_key text not null,
      processing_mode text not null,
      orders integer not null,
      primary key (grain, period, country_key, processing_mode)
    )`);
  await query(`
    create table ${t("countryDue")} (
      created_day date not null,
      country_key text not null,
      processing_date date not null,
      orders integer not null,
      primary key (created_day, country_key, processing_date)
    )`);
  // "Due after today" reads only the rows of the coming days, whatever the created range.
  await query(`create index ${t("countryDue")}_processing_date on ${t("countryDue")} (processing_date)`);
  await query(`
    create table ${t("processedTotals")} (
      grain "char" not null,
      period date not null,
      staff_id text not null,
      orders integer not null,
      primary key (grain, period, staff_id)
    )`);
  await query(`
    create table ${t("staffNames")} (
      staff_id text primary key,
      name text not null
    )`);
};

const ORDER_EVENTS = new Set<AnyEvent["type"]>([
  "OrderPlaced",
  "OrderAssigned",
  "OrderStatusChanged",
  "OrderMovedToOriginalFolder",
  "OrderRefundRequested",
  "OrderRefunded",
  "OrderChargebackMarked",
  "OrderPermanentlyDeleted",
  "DocumentUploaded",
]);

const dayOf = (isoDateTime: string): string => isoDateTime.slice(0, 10);

const blankToNull = (value: string | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/** The order as it is after this event; `undefined` before it was placed. */
const evolve = (order: ReportOrder | undefined, event: AnyEvent): ReportOrder | undefined => {
  if (event.type === "OrderPlaced") {
    if (order) return order;
    const personal = isErased(event.data.personal) ? undefined : event.data.personal;
    const citizenshipId = blankToNull(personal?.citizenship_id);
    const citizenship = blankToNull(personal?.citizenship) ?? blankToNull(personal?.citizenshipCountry);
    return {
      orderId: event.data.orderId,
      createdAt: event.data.createdAt,
      citizenshipId,
      citizenship,
      countryKey: citizenshipId ?? citizenship?.toLowerCase() ?? "",
      processingMode: event.data.processingMode,
      processingDate: event.data.processingDate,
      status: statusAfter(event)!,
      processedById: null,
      processedBy: null,
      processedAt: null,
    };
  }
  if (!order) return order;
  switch (event.type) {
    case "OrderAssigned":
      return { ...order, status: statusAfter(event)! };
    case "OrderStatusChanged":
    case "OrderMovedToOriginalFolder":
      return { ...order, status: statusAfter(event)! };
    case "OrderRefundRequested":
      return { ...order, status: statusAfter(event)! };
    case "OrderRefunded":
      return { ...order, status: statusAfter(event)! };
    case "OrderChargebackMarked":
      return { ...order, status: statusAfter(event)! };
    case "OrderPermanentlyDeleted":
      // The order stays Deleted, counted nowhere, and without the country its customer typed.
      return { ...order, status: statusAfter(event)!, citizenshipId: null, citizenship: null, countryKey: "" };
    case "DocumentUploaded":
      return {
        ...order,
        processedById: event.data.uploadedBy.id,
        processedBy: event.data.uploadedBy.name,
        processedAt: event.metadata.occurredAt,
      };
    default:
      return order;
  }
};

/** Adds +1 or -1 for every total an order counts in, at both grains. */
class Deltas {
  readonly countryTotals = new Map<string, number>();
  readonly countryDue = new Map<string, number>();
  readonly processedTotals = new Map<string, number>();

  count(order: ReportOrder | undefined, sign: 1 | -1): void {
    if (!order) return;
    const createdDay = dayOf(order.createdAt);
    if (order.status !== "Deleted") {
      bump(this.countryTotals, ["d", createdDay, order.countryKey, order.processingMode], sign);
      bump(this.countryTotals, ["m", monthOf(createdDay), order.countryKey, order.processingMode], sign);
      bump(this.countryDue, [createdDay, order.countryKey, order.processingDate], sign);
    }
    if (order.processedById !== null && order.processedAt !== null) {
      const processedDay = dayOf(order.processedAt);
      bump(this.processedTotals, ["d", processedDay, order.processedById], sign);
      bump(this.processedTotals, ["m", monthOf(processedDay), order.processedById], sign);
    }
  }
}

const bump = (map: Map<string, number>, key: readonly string[], by: number) => {
  const k = JSON.stringify(key);
  map.set(k, (map.get(k) ?? 0) + by);
};

/** The changed keys as columns (one array per key part) and the summed deltas. */
const columnsOf = (map: Map<string, number>, width: number): { keys: string[][]; deltas: number[] } => {
  const keys: string[][] = Array.from({ length: width }, () => []);
  const deltas: number[] = [];
  for (const [k, delta] of map) {
    if (delta === 0) continue;
    (JSON.parse(k) as string[]).forEach((part, i) => keys[i]!.push(part));
    deltas.push(delta);
  }
  return { keys, deltas };
};

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const loadOrders = async (query: Query, table: TableName, orderIds: readonly string[]): Promise<Map<string, ReportOrder>> => {
  const loaded = new Map<string, ReportOrder>();
  if (orderIds.length === 0) return loaded;
  const rows = await query(
    `select order_id, ${ISO("created_at")} as created_at, citizenship_id, citizenship, country_key, processing_mode,
            to_char(processing_date, 'YYYY-MM-DD') as processing_date, status, processed_by_id, processed_by,
            ${ISO("processed_at")} as processed_at
       from ${table(REPORT_TABLES.orders)} where order_id = any($1::text[])`,
    [orderIds],
  );
  for (const row of rows) {
    loaded.set(String(row.order_id), {
      orderId: String(row.order_id),
      createdAt: String(row.created_at),
      citizenshipId: row.citizenship_id as string | null,
      citizenship: row.citizenship as string | null,
      countryKey: String(row.country_key),
      processingMode: row.processing_mode as ProcessingMode,
      processingDate: String(row.processing_date),
      status: row.status as OrderStatus,
      processedById: row.processed_by_id as string | null,
      processedBy: row.processed_by as string | null,
      processedAt: row.processed_at as string | null,
    });
  }
  return loaded;
};

const saveOrders = async (query: Query, table: TableName, orders: readonly ReportOrder[]): Promise<void> => {
  if (orders.length === 0) return;
  await query(
    `insert into ${table(REPORT_TABLES.orders)} as o
       (order_id, created_at, created_day, citizenship_id, citizenship, country_key, processing_mode, processing_date,
        status, processed_by_id, processed_by, processed_at, processed_day)
     select order_id, created_at, (created_at at time zone 'UTC')::date, citizenship_id, citizenship, country_key,
            processing_mode, processing_date, status, processed_by_id, processed_by, processed_at,
            (processed_at at time zone 'UTC')::date
       from unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::date[],
                   $8::text[], $9::text[], $10::text[], $11::timestamptz[])
         as u(order_id, created_at, citizenship_id, citizenship, country_key, processing_mode, processing_date,
              status, processed_by_id, processed_by, processed_at)
     on conflict (order_id) do update set
       citizenship_id = excluded.citizenship_id,
       citizenship = excluded.citizenship,
       country_key = excluded.country_key,
       status = excluded.status,
       processed_by_id = excluded.processed_by_id,
       processed_by = excluded.processed_by,
       processed_at = excluded.processed_at,
       processed_day = excluded.processed_day`,
    [
      orders.map((o) => o.orderId),
      orders.map((o) => o.createdAt),
      orders.map((o) => o.citizenshipId),
      orders.map((o) => o.citizenship),
      orders.map((o) => o.countryKey),
      orders.map((o) => o.processingMode),
      orders.map((o) => o.processingDate),
      orders.map((o) => o.status),
      orders.map((o) => o.processedById),
      orders.map((o) => o.processedBy),
      orders.map((o) => o.processedAt),
    ],
  );
};

/**
 * Adds the deltas to a totals table in one statement. A total that reaches 0 is removed, so the
 * table holds the same rows whatever the batches were (a +1 and a -1 in one batch never make a
 * row; in two batches they would otherwise leave a 0 behind).
 */
const addTotals = async (query: Query, totals: string, key: readonly (readonly [column: string, type: string])[], changes: { keys: string[][]; deltas: number[] }) => {
  if (changes.deltas.length === 0) return;
  const columns = key.map(([column]) => column).join(", ");
  const arrays = key.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  const emptied = await query(
    `insert into ${totals} as a (${columns}, orders)
     select * from unnest(${arrays}, $${key.length + 1}::int[])
     on conflict (${columns}) do update set orders = a.orders + excluded.orders
     returning ${key.map(([column]) => `${column}::text as ${column}`).join(", ")}, orders`,
    [...changes.keys, changes.deltas],
  );
  const zero = emptied.filter((row) => Number(row.orders) === 0);
  if (zero.length === 0) return;
  await query(
    `delete from ${totals} a using unnest(${arrays}) as z(${columns})
     where ${key.map(([column]) => `a.${column} = z.${column}`).join(" and ")} and a.orders = 0`,
    key.map(([column]) => zero.map((row) => row[column] as string)),
  );
};

const saveDeltas = async (query: Query, table: TableName, deltas: Deltas): Promise<void> => {
  await addTotals(
    query,
    table(REPORT_TABLES.countryTotals),
    [["grain", '"char"'], ["period", "date"], ["country_key", "text"], ["processing_mode", "text"]],
    columnsOf(deltas.countryTotals, 4),
  );
  await addTotals(
    query,
    table(REPORT_TABLES.countryDue),
    [["created_day", "date"], ["country_key", "text"], ["processing_date", "date"]],
    columnsOf(deltas.countryDue, 3),
  );
  await addTotals(
    query,
    table(REPORT_TABLES.processedTotals),
    [["grain", '"char"'], ["period", "date"], ["staff_id", "text"]],
    columnsOf(deltas.processedTotals, 3),
  );
};

const saveNames = async (
  query: Query,
  table: TableName,
  countries: ReadonlyMap<string, { citizenshipId: string | null; citizenship: string | null }>,
  staff: ReadonlyMap<string, string>,
): Promise<void> => {
  if (countries.size > 0) {
    const entries = [...countries];
    await query(
      `insert into ${table(REPORT_TABLES.countryNames)} (country_key, citizenship_id, citizenship)
       select * from unnest($1::text[], $2::text[], $3::text[])
       on conflict (country_key) do update set
         citizenship_id = coalesce(excluded.citizenship_id, ${table(REPORT_TABLES.countryNames)}.citizenship_id),
         citizenship = coalesce(excluded.citizenship, ${table(REPORT_TABLES.countryNames)}.citizenship)`,
      [entries.map(([key]) => key), entries.map(([, c]) => c.citizenshipId), entries.map(([, c]) => c.citizenship)],
    );
  }
  if (staff.size > 0) {
    const entries = [...staff];
    await query(
      `insert into ${table(REPORT_TABLES.staffNames)} (staff_id, name)
       select * from unnest($1::text[], $2::text[])
       on conflict (staff_id) do update set name = excluded.name`,
      [entries.map(([id]) => id), entries.map(([, name]) => name)],
    );
  }
};

const apply = async (events: readonly ProjectedEvent[], query: Query, table: TableName): Promise<void> => {
  const orderIds = new Set<string>();
  for (const { event } of events) {
    if (ORDER_EVENTS.has(event.type) && "orderId" in event.data) orderIds.add(event.data.orderId);
  }
  const before = await loadOrders(query, table, [...orderIds]);
  const after = new Map(before);
  const countries = new Map<string, { citizenshipId: string | null; citizenship: string | null }>();
  const staff = new Map<string, string>();
  const erasedCountries: string[] = [];

  for (const { event } of events) {
    switch (event.type) {
      case "StaffMemberAdded":
      case "StaffMemberUpdated":
        staff.set(event.data.staffId, event.data.name);
        continue;
      case "DocumentUploaded":
        staff.set(event.data.uploadedBy.id, event.data.uploadedBy.name);
        break;
      default:
        break;
    }
    if (!ORDER_EVENTS.has(event.type) || !("orderId" in event.data)) continue;
    const orderId = event.data.orderId;
    const previous = after.get(orderId);
    const next = evolve(previous, event);
    if (next === undefined) continue;
    after.set(orderId, next);
    if (event.type === "OrderPlaced") {
      countries.set(next.countryKey, { citizenshipId: next.citizenshipId, citizenship: next.citizenship });
    }
    if (event.type === "OrderPermanentlyDeleted" && previous !== undefined && previous.countryKey !== "") erasedCountries.push(previous.countryKey);
  }

  const deltas = new Deltas();
  const changed: ReportOrder[] = [];
  for (const [orderId, order] of after) {
    const old = before.get(orderId);
    if (old === order) continue;
    deltas.count(old, -1);
    deltas.count(order, 1);
    changed.push(order);
  }
  await saveOrders(query, table, changed);
  await saveDeltas(query, table, deltas);
  await saveNames(query, table, countries, staff);
  await forgetCountryNames(query, table, erasedCountries);
};

/**
 * The names of countries whose orders were erased. A name no remaining order gives is the erased
 * customer's typing: the country's row goes when no order names the country any more, and a
 * spelling (id or name) no remaining order gives is replaced by that of the latest-created order
 * still naming it. A spelling some order still gives stays as it is, so the outcome is the same
 * whichever batch the placing and erasing events fall in (R3: a rebuild is the same however it
 * was interrupted).
 */
const forgetCountryNames = async (query: Query, table: TableName, countryKeys: readonly string[]): Promise<void> => {
  if (countryKeys.length === 0) return;
  const [names, orders] = [table(REPORT_TABLES.countryNames), table(REPORT_TABLES.orders)];
  await query(
    `delete from ${names} n where n.country_key = any($1::text[])
        and not exists (select 1 from ${orders} o where o.country_key = n.country_key)`,
    [countryKeys],
  );
  const spelling = (column: "citizenship_id" | "citizenship") => `
    case when n.${column} is null or exists (select 1 from ${orders} o where o.country_key = n.country_key and o.${column} = n.${column})
         then n.${column}
         else (select o.${column} from ${orders} o where o.country_key = n.country_key and o.${column} is not null
                order by o.created_at desc, o.order_id desc limit 1)
    end`;
  await query(`update ${names} n set citizenship_id = ${spelling("citizenship_id")}, citizenship = ${spelling("citizenship")} where n.country_key = any($1::text[])`, [
    countryKeys,
  ]);
};

export const reportsProjection: Projection = {
  name: "reports",
  // 3 (issue 25): citizenship comes from OrderPlaced's sealed part and is blanked, with the
  // country names no other order gives, on a permanent delete.
  version: 3,
  tables: Object.values(REPORT_TABLES),
  migrate,
  apply,
};
