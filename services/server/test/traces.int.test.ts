import { randomUUID } from "node:crypto";
import { postgresAvailable } from "@etd/infra/test-database";
import { traceIdOf, traceInMemory, type ReadableSpan } from "@etd/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream } from "./support/sse-stream.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

const waitFor = async <T>(find: () => T | undefined, ms = 10_000): Promise<T> => {
  for (const started = Date.now(); Date.now() - started < ms; await new Promise((r) => setTimeout(r, 20))) {
    const found = find();
    if (found !== undefined) return found;
  }
  throw new Error("not found in time");
};

/**
 * Issue 28: one click followed by its trace, from the SDK's in-memory exporter: the request, the
 * command (decide, append), each read model's batch that applied the event, and the live message
 * that told a watching browser, all in the trace derived from the request's correlation id
 * (ADR 0041), each step the child of the one before.
 */
describe.skipIf(!available)("issue 28: a command's trace, request → decide → append → projector → live message", () => {
  let api: TestApi;
  let traces: ReturnType<typeof traceInMemory>;

  beforeAll(async () => {
    traces = traceInMemory();
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
    await traces?.stop();
  });

  it("follows one remark from the request to the live message at another member's browser, in one trace", async () => {
    const [orderId] = (await api.placeOrders(1)) as [string];
    const team = await api.login("Team");
    const heard: { event: string; data: string }[] = [];
    const stream = await openStream(`${api.base}/api/live`, (e) => heard.push(e), { authorization: await api.login("Manager") });
    try {
      await waitFor(() => heard.find((e) => e.event === "hello"));
      // The order's page shows it: its placement is applied, so the remark's batch is the remark's alone
      // (a batch holding both is traced as the placement's click). On a busy runner they came together.
      for (let shown = false; !shown; ) shown = (await fetch(`${api.base}/api/admin/get-orders-details/${orderId}`, { headers: { authorization: team } })).status === 200;
      const requestId = randomUUID();
      const answer = await fetch(`${api.base}/api/admin/add-new-remark`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: team, "x-request-id": requestId },
        body: JSON.stringify({ orderId, remark: "Traced." }),
      });
      expect(answer.status).toBe(200);
      const { position } = ((await answer.json()) as { data: { position: string } }).data;
      const traceId = traceIdOf(requestId);
      const inTrace = () => traces.spans().filter((s) => s.spanContext().traceId === traceId);
      const named = (name: string) => inTrace().find((s) => s.name === name);
      const childOf = (span: ReadableSpan, parent: ReadableSpan) => span.parentSpanContext?.spanId === parent.spanContext().spanId;

      const live = await waitFor(() => inTrace().find((s) => s.name === "live message" && s.attributes["etd.projection"] === "order_details"));
      const request = await waitFor(() => named("POST /api/admin/add-new-remark"));
      const command = named("command")!;
      const decide = named("decide")!;
      const append = named("append")!;
      const project = inTrace().find((s) => s.name === "project order_details")!;

      expect(request.attributes).toMatchObject({ "http.route": "/api/admin/add-new-remark", "etd.correlation_id": requestId, "http.response.status_code": 200 });
      expect(childOf(command, request)).toBe(true);
      expect(command.attributes).toMatchObject({ "etd.order_id": orderId, "etd.stream_id": `order-${orderId}`, "etd.correlation_id": requestId });
      expect(childOf(decide, command) && childOf(append, command)).toBe(true);
      expect(decide.attributes["etd.event_types"]).toEqual(["RemarkAdded"]);
      expect(append.attributes).toMatchObject({ "etd.event_types": ["RemarkAdded"], "etd.position": position });

      // The projector and the live stream know the click only by the event's correlation id.
      expect(project.attributes).toMatchObject({ "etd.event_types": ["RemarkAdded"], "etd.order_ids": [orderId], "etd.correlation_ids": [requestId] });
      expect(project.parentSpanContext?.spanId).toBe(request.parentSpanContext?.spanId);
      expect(childOf(live, project)).toBe(true);
      expect(live.attributes).toMatchObject({ "etd.position": position, "etd.clients": 1 });
      // Every step starts after the one it follows.
      const startOf = (span: ReadableSpan) => span.startTime[0] * 1e3 + span.startTime[1] / 1e6;
      expect([request, command, decide, append, project, live].map(startOf)).toEqual([request, command, decide, append, project, live].map(startOf).sort((a, b) => a - b));

      // The browser heard the change, and never the batch's span.
      await waitFor(() => heard.find((e) => e.event === "change" && JSON.parse(e.data).projection === "order_details" && JSON.parse(e.data).position === position));
      expect(heard.filter((e) => e.data.includes('"trace"'))).toEqual([]);
    } finally {
      stream.close();
    }
  });
});
