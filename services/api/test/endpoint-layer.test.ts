import type { AddressInfo } from "node:net";
import express from "express";
import * as Result from "effect/Result";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { answer, endpoints } from "@etd/contract/endpoints";
import { bindEndpoints, joinHandlers, mountEndpoints, readingInput, type MountDeps } from "../src/http/endpoint.ts";
import { fail, ok } from "../src/http/reply.ts";

/*
 * Issue 10 item 2: the endpoint layer decodes each request once, with the schemas the endpoint
 * declares, before its handler runs; the handler gets the decoded values. The endpoints here are
 * declared as the contract declares the API's (`endpoints`, schemas by name) and bound as the app
 * binds them (`bindEndpoints`): only the table is the test's. Public endpoints, so no sign-in is
 * needed; the staff guard is walked by the R6 suite (permissions.int.test.ts).
 */

const DECLARED = endpoints({
  echo: {
    method: "post",
    path: "/echo",
    guard: "public",
    summary: "echo",
    body: "TrackOrderRequest",
    data: answer<{ readonly orderId: string }>(),
  },
  page: {
    method: "get",
    path: "/orders/:orderId",
    guard: "public",
    summary: "params and a lenient query",
    params: "OrderIdParam",
    query: "TimelineQuery",
    data: answer<{ readonly orderId: string | number; readonly limit: string | null }>(),
  },
  strict: {
    method: "get",
    path: "/strict",
    guard: "public",
    summary: "a strict query",
    query: "TimelineQuery",
    strictQuery: true,
  },
  shaped: {
    method: "post",
    path: "/shaped",
    guard: "public",
    summary: "a refusal with keys of its own",
    body: "TrackOrderRequest",
  },
  reads: {
    method: "post",
    path: "/reads",
    guard: "public",
    summary: "reads its input itself",
    readsInputItself: true,
    data: answer<{ readonly length: number }>(),
  },
});

/** Every call that reached a handler, with what it was handed. */
const handled: unknown[] = [];

const endpointTable = bindEndpoints(DECLARED, {
  echo: async ({ input }) => {
    handled.push(input);
    return ok("echoed", { orderId: input.orderId.trim() });
  },
  page: async ({ params, input }) => {
    handled.push({ params, input });
    return ok("read", { orderId: params.orderId, limit: input.limit ?? null });
  },
  strict: async ({ input }) => ok("read", input),
  shaped: {
    refusal: (refused) => fail(refused.httpStatus, refused.body.message, refused.body.data, { extra: "always here" }),
    handle: async () => fail(409, "not reached in these tests"),
  },
  reads: readingInput(
    (req) => (typeof req.body?.text === "string" ? Result.succeed(req.body.text as string) : Result.fail(fail(400, "Send a text."))),
    async ({ input }) => ok("read", { length: input.length }),
  ),
});

describe("the endpoint layer decodes once, at the edge", () => {
  let base = "";
  let server: ReturnType<express.Express["listen"]>;

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    // Public endpoints need none of the guard's or the read-after wait's dependencies.
    const deps = { metrics: { observe: () => {}, render: () => "" }, secureCookies: false } as unknown as MountDeps;
    mountEndpoints(app, endpointTable, deps);
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("hands the handler the decoded body, and answers a bad one with the schema's message without running it", async () => {
    handled.length = 0;
    const sent = { orderId: " 1000001 ", email: "ana@example.com" };
    expect(await call("POST", "/echo", sent)).toEqual({ status: 200, body: { status: 1, message: "echoed", data: { orderId: "1000001" } } });
    const missing = await call("POST", "/echo", {});
    expect(missing).toMatchObject({ status: 400, body: { status: 0, message: "Please enter your orderId" } });
    const extra = await call("POST", "/echo", { ...sent, role: "Admin" });
    expect(extra).toMatchObject({ status: 400, body: { status: 0, message: 'The field "role" is not accepted.' } });
    expect(handled).toEqual([sent]);
  });

  it("decodes path parameters, then reads only the query parameters the schema names", async () => {
    handled.length = 0;
    expect((await call("GET", "/orders/1000001?limit=2&_=cachebuster")).body.data).toEqual({ orderId: "1000001", limit: "2" });
    expect(handled).toEqual([{ params: { orderId: "1000001" }, input: { limit: "2" } }]);
    expect(await call("GET", "/orders/12")).toMatchObject({ status: 400, body: { message: "Order Id must be at least 6 characters." } });
    expect(await call("GET", "/orders/1000001?limit=two")).toMatchObject({ status: 400, body: { message: "limit: limit must be a whole number." } });
    expect(handled).toHaveLength(1);
  });

  it("refuses unknown query parameters where the endpoint says so, and reshapes refusals where it asks", async () => {
    expect(await call("GET", "/strict?limit=1&other=1")).toMatchObject({ status: 400, body: { message: 'The field "other" is not accepted.' } });
    expect(await call("POST", "/shaped", {})).toEqual({
      status: 400,
      body: { status: 0, message: "Please enter your orderId", data: expect.anything(), extra: "always here" },
    });
  });

  it("runs a handler that reads its input itself with what it read, or answers the reader's refusal", async () => {
    expect(await call("POST", "/reads", { text: "four" })).toEqual({ status: 200, body: { status: 1, message: "read", data: { length: 4 } } });
    expect(await call("POST", "/reads", {})).toEqual({ status: 400, body: { status: 0, message: "Send a text.", data: null } });
  });
});

/*
 * Issue 26: a declaration says every status its endpoint answers: the layer's, from the guard and
 * what it reads, and the handler's own. And a path parameter it does not declare stops the table
 * from being built, so the server does not start with an undocumented parameter.
 */
describe("an endpoint's declaration is its contract", () => {
  it("refuses a path parameter its params schema does not declare", () => {
    const read = async () => ok("read");
    const undeclared = endpoints({ files: { method: "get", path: "/orders/:orderId/files/:name", guard: "public", summary: "x", params: "OrderIdParam" } });
    expect(() => bindEndpoints(undeclared, { files: read })).toThrow("the path parameter name is not declared in params");
    const none = endpoints({ files: { method: "get", path: "/files/:name", guard: "public", summary: "x" } });
    expect(() => bindEndpoints(none, { files: read })).toThrow("the path parameter name is not declared");
  });

  it("answers the layer's statuses for its guard and input, and the handler's it declares", () => {
    const statuses = (endpoint: { readonly answers: object }) => Object.keys(endpoint.answers).map(Number);
    const [echo, page] = endpointTable;
    expect(statuses(page!)).toEqual([200, 400]);
    expect(statuses(echo!)).toEqual([200, 400, 413, 415]);
    const declared = endpoints({
      list: { method: "get", path: "/list", guard: "orders.read", summary: "x", answers: { 404: "No such list" } },
      intake: { method: "post", path: "/in", guard: "service", summary: "x", body: "TrackOrderRequest", answers: { 409: "Placed already" } },
      // A status both answer has both meanings.
      both: { method: "get", path: "/both", guard: "public", summary: "x", answers: { 400: "The handler's own reason" } },
    });
    const [list, intake, both] = bindEndpoints(declared, { list: async () => ok("read"), intake: async () => ok("placed"), both: async () => ok("read") });
    expect(statuses(list!)).toEqual([200, 400, 401, 403, 404]);
    expect(statuses(intake!)).toEqual([200, 400, 401, 409, 413, 415]);
    expect(both!.answers[400]).toMatch(/not JSON.*; or: The handler's own reason$/);
  });

  it("joins the route files' handlers only where no name is handled twice", () => {
    const refuse = async () => fail(503, "Not now.");
    expect(Object.keys(joinHandlers({ verifyLog: refuse }, { getPaymentGateways: refuse }))).toEqual(["verifyLog", "getPaymentGateways"]);
    const twice = () => joinHandlers({ verifyLog: refuse }, { getPaymentGateways: refuse }, { verifyLog: refuse });
    // The typecheck refuses it first: the joined table is no `Handlers`, and names the name.
    expectTypeOf(twice).returns.toEqualTypeOf<{ readonly handledTwice: "verifyLog" }>();
    expect(twice).toThrow("verifyLog is handled twice");
  });
});
