import { postgresAvailable } from "@etd/infra/test-database";
import { ALL_PROJECTIONS, listBuilds, ORDER_DETAIL_TABLES, tableOf } from "@etd/projections";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "@etd/api/internal/app.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

/*
 * Read-your-writes, precisely (issue 10 item 6): a query sent with X-Read-After waits only for the
 * read models it reads (Endpoint.reads), so one lagging projector holds back its own screens and
 * no other.
 */
describe.skipIf(!available)("X-Read-After waits only for the read models a query reads", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  /**
   * Holds the order_details projector still: its live tables are locked against writes (reads go
   * on) until `release` is called, so its checkpoint stays behind while the other projectors move.
   * A table lock takes no transaction id, so it does not hold the log's read horizon back.
   */
  const stallOrderDetails = async () => {
    const live = (await listBuilds(api.runtime.driver.query, "order_details")).find((build) => build.status === "live")!;
    const tables = Object.values(ORDER_DETAIL_TABLES).map((base) => tableOf(live, base));
    let release = () => {};
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const held = api.runtime.driver.transaction(async (query) => {
      await query(`lock table ${tables.join(", ")} in exclusive mode`);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    return async () => {
      release();
      await held;
    };
  };

  const timedRead = async (path: string, token: string, position: string) => {
    const started = performance.now();
    const response = await fetch(`${api.base}/api${path}`, { headers: { authorization: token, "x-read-after": position } });
    return { ms: performance.now() - started, reached: response.headers.get("x-read-after-reached"), body: (await response.json()) as Record<string, any> };
  };

  it("with the order-details projector stalled, a queue query answers at once and an order-details query waits for its read model", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    const resume = await stallOrderDetails();
    let detail: ReturnType<typeof timedRead> | undefined;
    try {
      const assigned = await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, team);
      const position = assigned.body.data.position as string;

      // The queue read model has applied the assignment: the list shows it, without waiting for order_details.
      const mine = await timedRead("/admin/get-orders-list/myOrder?page=1&limit=All", team, position);
      // Reached while order_details is held: the list did not wait for a read model it does not read.
      expect(mine.reached).toBe("true");
      expect(mine.body.data.map((row: { order_id: string }) => row.order_id)).toContain(orderId);

      // The order page reads order_details, which has not: its answer waits.
      let answered = false;
      detail = timedRead(`/admin/get-orders-details/${orderId}`, team, position).finally(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(answered).toBe(false);
    } finally {
      await resume();
    }
    // Once the projector moves again the waiting query answers, with the assignment applied.
    const answer = await detail;
    expect(answer.reached).toBe("true");
    expect(answer.ms).toBeGreaterThanOrEqual(1000);
    expect(answer.body.data).toMatchObject({ order_id: orderId });
  });

  it("every query endpoint names the read models it reads, each one a real projection", () => {
    const queries = allEndpoints(api.runtime.deps).filter(
      (endpoint) => endpoint.guard !== "public" && endpoint.guard !== "service" && endpoint.file === undefined && (endpoint.method === "get" || endpoint.readOnly),
    );
    expect(queries.filter((endpoint) => endpoint.reads === undefined).map((endpoint) => endpoint.path)).toEqual([]);
    const names = ALL_PROJECTIONS.map((projection) => projection.name);
    expect(queries.flatMap((endpoint) => endpoint.reads ?? []).filter((name) => !names.includes(name))).toEqual([]);
  });
});
