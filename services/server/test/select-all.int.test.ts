import { comparePositions, formatPosition, parsePosition, type GlobalPosition } from "@etd/event-store";
import { generateDemoOrders } from "@etd/demo";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTAKE_TOKEN, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

/*
 * Issue 16, select all across pages, end to end over HTTP on a real PostgreSQL: the selection
 * (POST /admin/select-all-orders) is every order the pages of a folder or its search show, and a
 * bulk action sent with `asSelected` changes exactly the orders selected, and of them only those
 * still as the member saw them (QUEUE-8, QUEUE-9). An order that changed is reported, one that
 * arrived later is never added.
 */

const NEW_ORDERS = 516;
/** Of the 516, these carry a first name the search finds; the others never contain it. */
const MARKED = 16;
const MARKER = "Zebediah";

interface Selected {
  readonly orderId: string;
  readonly process_status: string;
  readonly assign_to_id: string | null;
}

describe.skipIf(!available)("issue 16 select all across pages (QUEUE-8, QUEUE-9)", () => {
  let api: TestApi;
  let manager: string;
  let team: string;
  let telecaller: string;
  let orderIds: string[];
  let marked: Set<string>;
  /** The position every read must reach: the last write's. */
  let lastWrite: GlobalPosition | undefined;
  let seed = 1;

  const wrote = (position: unknown) => {
    const parsed = typeof position === "string" ? parsePosition(position) : undefined;
    if (parsed && (!lastWrite || comparePositions(parsed, lastWrite) > 0)) lastWrite = parsed;
  };

  /** Standard-processing orders due today (so all are New), through intake, a few at a time. */
  const placeNew = async (firstId: number, count: number, firstName?: (i: number) => string | undefined): Promise<string[]> => {
    const bodies = generateDemoOrders({ seed: seed++, count, now: new Date() });
    const today = new Date().toISOString().slice(0, 10);
    const ids = bodies.map((_, i) => String(firstId + i));
    const place = async (i: number) => {
      const name = firstName?.(i);
      const body = {
        ...bodies[i],
        order_id: ids[i],
        processing_mode: "Regular Processing",
        processing_date: today,
        ...(name === undefined ? {} : { first_name: name }),
      };
      const placed = await api.call("POST", "/intake/orders", body, `Bearer ${INTAKE_TOKEN}`);
      if (placed.status !== 200) throw new Error(`placing ${ids[i]} failed: ${JSON.stringify(placed.body)}`);
      wrote(placed.body.data?.position);
    };
    for (let i = 0; i < count; i += 8) await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, k) => place(i + k)));
    return ids;
  };

  /** A read after the last write (X-Read-After), as the client reads after its own commands. */
  const read = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${api.base}/api${path}`, {
      method,
      headers: {
        authorization: token,
        ...(lastWrite ? { "x-read-after": formatPosition(lastWrite) } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.headers.get("x-read-after-reached")).not.toBe("false");
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  const selectAll = (token: string, body: Record<string, unknown>) => read("POST", "/admin/select-all-orders", token, body);

  const lastEvent = async (orderId: string) => (await api.runtime.deps.store.readStream(`order-${orderId}`)).at(-1)!;

  beforeAll(async () => {
    api = await startTestApi();
    [manager, team, telecaller] = await Promise.all([api.login("Manager"), api.login("Team"), api.login("Telecaller")]);
    const started = performance.now();
    // Every 32nd order carries the marker, so the marked ones are spread across the pages.
    orderIds = await placeNew(810_000_000, NEW_ORDERS, (i) => (i % 32 === 5 ? MARKER : undefined));
    marked = new Set(orderIds.filter((_, i) => i % 32 === 5));
    console.log(`seeded ${NEW_ORDERS} New orders through intake in ${Math.round(performance.now() - started)} ms`);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
  });

  it("issue 16: selecting all of New answers all 516 orders, newest first, exactly as the pages list them", async () => {
    const selected = await selectAll(manager, { folderName: "newOrder" });
    expect(selected.status).toBe(200);
    expect(selected.body).toMatchObject({ status: 1, message: "Orders selected.", total: NEW_ORDERS });
    const rows = selected.body.data as Selected[];
    expect(rows).toHaveLength(NEW_ORDERS);
    expect(new Set(rows.map((row) => row.orderId))).toEqual(new Set(orderIds));
    expect(rows.every((row) => row.process_status === "New" && row.assign_to_id === null)).toBe(true);
    expect(Object.keys(rows[0]!).sort()).toEqual(["assign_to_id", "orderId", "process_status"]);
    // Page 1 and page 2 of the list, put together, in the same order.
    const pages = [];
    for (const page of [1, 2]) pages.push(...(await read("GET", `/admin/get-orders-list/newOrder?page=${page}&limit=500`, manager)).body.data);
    expect(rows.map((row) => row.orderId)).toEqual(pages.map((row: { order_id: string }) => row.order_id));
  });

  it("issue 16: selecting all of a search answers only the matching orders, of every page, any case", async () => {
    const selected = await selectAll(manager, { folderName: "newOrder", searchVal: MARKER.toLowerCase().slice(0, 6) });
    expect(selected.body).toMatchObject({ status: 1, total: MARKED });
    const ids = (selected.body.data as Selected[]).map((row) => row.orderId);
    expect(new Set(ids)).toEqual(marked);
    // The search's own first page agrees (the same WHERE), and its total too.
    const search = await read("POST", "/admin/search-order", manager, { folderName: "newOrder", searchVal: MARKER.toUpperCase(), start: 0, end: 10 });
    expect(search.body.total).toBe(MARKED);
    expect(search.body.data.map((row: { order_id: string }) => row.order_id)).toEqual(ids.slice(0, 10));
  });

  it("issue 16: the same folder rules as search: a Telecaller may select New but not Order History (403)", async () => {
    expect((await selectAll(telecaller, { folderName: "newOrder", searchVal: MARKER })).body).toMatchObject({ status: 1, total: MARKED });
    const history = await selectAll(telecaller, { folderName: "allOrder" });
    expect(history.status).toBe(403);
    expect(history.body.status).toBe(0);
    expect((await selectAll(manager, { folderName: "noSuchFolder" })).status).toBe(404);
  });

  it("QUEUE-8 issue 16: asSelected that does not name each order sent exactly once is refused with 400, and nothing changes", async () => {
    const [a, b, c] = orderIds as [string, string, string];
    const entry = (orderId: string) => ({ orderId, process_status: "New", assign_to_id: null });
    const before = await api.eventCount();
    const bodies = [
      { orderId: [a, b], asSelected: [entry(a)] },
      { orderId: [a, b], asSelected: [entry(a), entry(b), entry(b)] },
      { orderId: [a, b], asSelected: [entry(a), entry(c)] },
      { orderId: [a], asSelected: [entry(a), entry(c)] },
    ];
    for (const body of bodies) {
      const answer = await api.call("PUT", "/admin/change-order-status", { ...body, updatingStatus: "Deleted", permanentDeletedFlag: false }, manager);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ status: 0, message: "asSelected must name each order once." });
    }
    const assign = await api.call("PUT", "/admin/assign-order-status", { orderId: [a], asSelected: [entry(b)] }, team);
    expect(assign.body).toMatchObject({ status: 0, message: "asSelected must name each order once." });
    const move = await api.call("PUT", "/admin/move-order-status", { orderId: [a, b], asSelected: [entry(a)] }, manager);
    expect(move.body).toMatchObject({ status: 0, message: "asSelected must name each order once." });
    // An entry that is not an order as a selection answers it.
    const badStatus = await api.call("PUT", "/admin/move-to-complete-refund", { orderId: [a], asSelected: [{ ...entry(a), process_status: "Nonsense" }] }, manager);
    expect(badStatus.status).toBe(400);
    // Without asSelected a bulk action still names one page of orders at most, as before.
    const unselected = await api.call("PUT", "/admin/change-order-status", { orderId: orderIds.slice(0, 501), updatingStatus: "Deleted" }, manager);
    expect(unselected.body).toMatchObject({ status: 0, message: "At most 500 orders can be changed at once." });
    expect(await api.eventCount()).toBe(before);
  });

  it("QUEUE-8 issue 16: delete all 516 selected as Manager: 515 deleted, the one claimed meanwhile reported and kept, a later arrival untouched", async () => {
    const selection = (await selectAll(manager, { folderName: "newOrder" })).body.data as Selected[];
    expect(selection).toHaveLength(NEW_ORDERS);
    // Between selecting and confirming: a colleague claims one order, and a new order arrives.
    const claimed = selection[300]!.orderId;
    const claim = await api.call("PUT", "/admin/assign-order-status", { orderId: [claimed], assignto: api.staff.Team.name }, team);
    expect(claim.body).toMatchObject({ status: 1 });
    wrote(claim.body.data.position);
    const [arrived] = await placeNew(820_000_000, 1);

    const started = performance.now();
    const deleted = await api.call(
      "PUT",
      "/admin/change-order-status",
      { orderId: selection.map((row) => row.orderId), updatingStatus: "Deleted", permanentDeletedFlag: false, asSelected: selection },
      manager,
    );
    console.log(`deleted ${NEW_ORDERS - 1} of ${NEW_ORDERS} selected orders in ${Math.round(performance.now() - started)} ms`);
    const changedMessage = `Order ${claimed} changed after it was selected (now Pending, assigned to ${api.staff.Team.name}); it was left as it is.`;
    expect(deleted.status).toBe(409);
    expect(deleted.body).toMatchObject({
      status: 0,
      message: `1 of ${NEW_ORDERS} orders were not changed. ${changedMessage}`,
      data: { refused: [{ orderId: claimed, message: changedMessage }] },
    });
    const changed = deleted.body.data.changed as string[];
    expect(changed).toHaveLength(NEW_ORDERS - 1);
    expect(new Set(changed)).toEqual(new Set(orderIds.filter((id) => id !== claimed)));
    wrote(deleted.body.data.position);

    // The log: each of the 515 ends deleted; the claimed one is still the colleague's; the late one is only placed.
    for (const orderId of changed.filter((_, i) => i % 50 === 0)) {
      expect((await lastEvent(orderId)).data).toMatchObject({ to: "Deleted" });
    }
    const kept = await lastEvent(claimed);
    expect(kept.type).toBe("OrderAssigned");
    expect(kept.data).toMatchObject({ assignee: { id: api.staff.Team.id, name: api.staff.Team.name } });
    expect((await api.runtime.deps.store.readStream(`order-${arrived}`)).map((e) => e.type)).toEqual(["OrderPlaced"]);

    // The queues as members see them: New holds only the late arrival, Deleted the 515.
    const fresh = await selectAll(manager, { folderName: "newOrder" });
    expect((fresh.body.data as Selected[]).map((row) => row.orderId)).toEqual([arrived]);
    const gone = await selectAll(manager, { folderName: "deletedOrder" });
    expect(gone.body.total).toBe(NEW_ORDERS - 1);
    const teamsOrders = await read("GET", "/admin/get-orders-list/myOrder?page=1&limit=10", team);
    expect(teamsOrders.body.data.map((row: { order_id: string }) => row.order_id)).toEqual([claimed]);
  }, 120_000);

  it("QUEUE-9 issue 16: Assign to me on a selected search: an order deleted meanwhile is reported, the others are assigned", async () => {
    const quokkas = await placeNew(830_000_000, 3, () => "Quokka");
    const selection = (await selectAll(team, { folderName: "newOrder", searchVal: "quokka" })).body.data as Selected[];
    expect(new Set(selection.map((row) => row.orderId))).toEqual(new Set(quokkas));
    const removed = quokkas[1]!;
    expect((await api.call("PUT", "/admin/change-order-status", { orderId: [removed], updatingStatus: "Deleted" }, manager)).body).toMatchObject({ status: 1 });
    const assigned = await api.call(
      "PUT",
      "/admin/assign-order-status",
      { orderId: selection.map((row) => row.orderId), assignto: api.staff.Team.name, asSelected: selection },
      team,
    );
    const message = `Order ${removed} changed after it was selected (now Deleted); it was left as it is.`;
    expect(assigned.status).toBe(409);
    expect(assigned.body).toMatchObject({ status: 0, message: `1 of 3 orders were not changed. ${message}`, data: { refused: [{ orderId: removed, message }] } });
    expect(new Set(assigned.body.data.changed)).toEqual(new Set(quokkas.filter((id) => id !== removed)));
    expect((await lastEvent(removed)).data).toMatchObject({ to: "Deleted" });
  });

  it("issue 16: at most 5,000 orders: exactly 5,000 are selected, 5,001 refused with 400", async () => {
    // Set-based: 5,000 Completed rows written straight into the queue read model (copies of one
    // order), which is all the selection reads; placing them through intake would take minutes.
    const columns = (
      await api.runtime.driver.query("select column_name from information_schema.columns where table_name = 'queue_orders' order by ordinal_position")
    ).map((row) => String(row.column_name));
    const changedColumns: Record<string, string> = {
      order_id: "(900000000 + g)::text",
      process_status: "'Completed'",
      created_at: "t.created_at - g * interval '1 second'",
      assignee_id: "null",
      assignee_name: "null",
      search_text: "(900000000 + g)::text || ' ' || t.search_text",
    };
    const copy = async (from: number, to: number) =>
      api.runtime.driver.query(
        `insert into queue_orders (${columns.join(", ")})
         select ${columns.map((column) => changedColumns[column] ?? `t.${column}`).join(", ")}
           from queue_orders t cross join generate_series($2::int, $3::int) g where t.order_id = $1`,
        [orderIds[0], from, to],
      );
    await copy(1, 5_000);
    const most = await selectAll(manager, { folderName: "completedOrder" });
    expect(most.status).toBe(200);
    expect(most.body.total).toBe(5_000);
    expect(most.body.data).toHaveLength(5_000);
    await copy(5_001, 5_001);
    const tooMany = await selectAll(manager, { folderName: "completedOrder" });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ status: 0, message: "At most 5,000 orders can be selected at once. Please narrow the search.", data: null });
    // Narrowed by a search, the same folder can be selected again.
    const narrowed = await selectAll(manager, { folderName: "completedOrder", searchVal: "900005001" });
    expect(narrowed.body).toMatchObject({ status: 1, total: 1, data: [{ orderId: "900005001", process_status: "Completed", assign_to_id: null }] });
  });
});
