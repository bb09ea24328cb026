import type { Query } from "@etd/event-store";
import { isErased, statusAfter, STATUS_OR_CLOCK_EVENTS, type AnyEvent, type OrderStatus, type ProcessingMode } from "@etd/events";
import type { ProjectedEvent, Projection, TableName } from "../engine/projection.ts";
import { rowTable } from "../engine/row-table.ts";
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

/** One order's row, one column a line (engine/row-table.ts); the days are the instants' UTC days. */
const ORDERS = rowTable<ReportOrder>()({
  order_id: { type: "text", field: "orderId", required: true },
  created_at: { type: "timestamptz", field: "createdAt", required: true },
  created_day: { type: "date", sql: "(r.created_at at time zone 'UTC')::date", required: true },
  citizenship_id: { type: "text", field: "citizenshipId" },
  citizenship: { type: "text", field: "citizenship" },
  country_key: { type: "text", field: "countryKey", required: true },
  processing_mode: { type: "text", field: "processingMode", required: true },
  processing_date: { type: "date", field: "processingDate", required: true },
  status: { type: "text", field: "status", required: true },
  processed_by_id: { type: "text", field: "processedById" },
  processed_by: { type: "text", field: "processedBy" },
  processed_at: { type: "timestamptz", field: "processedAt" },
  processed_day: { type: "date", sql: "(r.processed_at at time zone 'UTC')::date" },
});

const migrate = async (query: Query, table: TableName): Promise<void> => {
  const t = (base: keyof typeof REPORT_TABLES) => table(REPORT_TABLES[base]);
  await query(`create table ${t("orders")} (
    ${ORDERS.ddl}
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

const loadOrders = async (query: Query, table: TableName, orderIds: readonly string[]): Promise<Map<string, ReportOrder>> => {
  if (orderIds.length === 0) return new Map();
  const rows = await query(`select ${ORDERS.select} from ${table(REPORT_TABLES.orders)} where order_id = any($1::text[])`, [orderIds]);
  return new Map(rows.map((row) => [String(row.order_id), ORDERS.decode(row)]));
};

const saveOrders = async (query: Query, table: TableName, orders: readonly ReportOrder[]): Promise<void> => {
  if (orders.length === 0) return;
  await query(ORDERS.upsert(table(REPORT_TABLES.orders)), [JSON.stringify(orders.map(ORDERS.record))]);
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
    if (STATUS_OR_CLOCK_EVENTS.has(event.type) && "orderId" in event.data) orderIds.add(event.data.orderId);
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
    if (!STATUS_OR_CLOCK_EVENTS.has(event.type) || !("orderId" in event.data)) continue;
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
