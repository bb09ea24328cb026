import type { AddressInfo } from "node:net";
import express from "express";
import * as Schema from "effect/Schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrderIdParam, requiredText } from "@etd/contract/requests";
import { mountEndpoints, publicEndpoint, serviceEndpoint, staffEndpoint, type MountDeps } from "../src/http/endpoint.ts";
import { fail, ok } from "../src/http/reply.ts";

/*
 * Issue 10 item 2: the endpoint layer decodes each request once, with the schemas the endpoint
 * declares, before its handler runs; the handler gets the decoded values. Public endpoints, so no
 * sign-in is needed; the staff guard is walked by the R6 suite (permissions.int.test.ts).
 */

const Echo = Schema.Struct({ name: requiredText("Please enter a name.", 20) });
const Paging = Schema.Struct({ page: Schema.optionalKey(Schema.String.check(Schema.makeFilter((s: string) => /^\d+$/.test(s) || "Page must be digits."))) });

/** Every call that reached a handler, with what it was handed. */
const handled: unknown[] = [];

const endpoints = [
  publicEndpoint({
    method: "post",
    path: "/echo",
    summary: "echo",
    body: Echo,
    handle: async ({ input }) => {
      handled.push(input);
      return ok("echoed", { name: input.name.trim() });
    },
  }),
  publicEndpoint({
    method: "get",
    path: "/orders/:orderId",
    summary: "params and a lenient query",
    params: OrderIdParam,
    query: Paging,
    handle: async ({ params, input }) => {
      handled.push({ params, input });
      return ok("read", { orderId: params.orderId, page: input.page ?? null });
    },
  }),
  publicEndpoint({
    method: "get",
    path: "/strict",
    summary: "a strict query",
    query: Paging,
    strictQuery: true,
    handle: async ({ input }) => ok("read", input),
  }),
  publicEndpoint({
    method: "post",
    path: "/shaped",
    summary: "a refusal with keys of its own",
    body: Echo,
    refusal: (refused) => ({ ...refused, body: { ...refused.body, extra: "always here" } }),
    handle: async () => fail(409, "not reached in these tests"),
  }),
];

describe("the endpoint layer decodes once, at the edge", () => {
  let base = "";
  let server: ReturnType<express.Express["listen"]>;

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    // Public endpoints need none of the guard's or the read-after wait's dependencies.
    const deps = { metrics: { observe: () => {}, render: () => "" }, secureCookies: false } as unknown as MountDeps;
    mountEndpoints(app, endpoints, deps);
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
    expect(await call("POST", "/echo", { name: " Ana " })).toEqual({ status: 200, body: { status: 1, message: "echoed", data: { name: "Ana" } } });
    const missing = await call("POST", "/echo", {});
    expect(missing).toMatchObject({ status: 400, body: { status: 0, message: "Please enter a name." } });
    const extra = await call("POST", "/echo", { name: "Ana", role: "Admin" });
    expect(extra).toMatchObject({ status: 400, body: { status: 0, message: 'The field "role" is not accepted.' } });
    expect(handled).toEqual([{ name: " Ana " }]);
  });

  it("decodes path parameters, then reads only the query parameters the schema names", async () => {
    handled.length = 0;
    expect((await call("GET", "/orders/1000001?page=2&_=cachebuster")).body.data).toEqual({ orderId: "1000001", page: "2" });
    expect(handled).toEqual([{ params: { orderId: "1000001" }, input: { page: "2" } }]);
    expect(await call("GET", "/orders/12")).toMatchObject({ status: 400, body: { message: "Order Id must be at least 6 characters." } });
    expect(await call("GET", "/orders/1000001?page=two")).toMatchObject({ status: 400, body: { message: "Page must be digits." } });
    expect(handled).toHaveLength(1);
  });

  it("refuses unknown query parameters where the endpoint says so, and reshapes refusals where it asks", async () => {
    expect(await call("GET", "/strict?page=1&other=1")).toMatchObject({ status: 400, body: { message: 'The field "other" is not accepted.' } });
    expect(await call("POST", "/shaped", {})).toEqual({
      status: 400,
      body: { status: 0, message: "Please enter a name.", data: expect.anything(), extra: "always here" },
    });
  });
});

/*
 * Issue 26: a declaration says every status its endpoint answers: the layer's, from the guard and
 * what it reads, and the handler's own. And a path parameter it does not declare stops the table
 * from being built, so the server does not start with an undocumented parameter.
 */
describe("an endpoint's declaration is its contract", () => {
  it("refuses a path parameter its params schema does not declare", () => {
    const undeclared = () => publicEndpoint({ method: "get", path: "/orders/:orderId/files/:name", summary: "x", params: OrderIdParam, handle: async () => ok("read") });
    expect(undeclared).toThrow("the path parameter name is not declared in params");
    expect(() => publicEndpoint({ method: "get", path: "/files/:name", summary: "x", handle: async () => ok("read") })).toThrow("the path parameter name is not declared");
  });

  it("answers the layer's statuses for its guard and input, and the handler's it declares", () => {
    const statuses = (endpoint: { readonly answers: object }) => Object.keys(endpoint.answers).map(Number);
    expect(statuses(endpoints[1]!)).toEqual([200, 400]);
    expect(statuses(endpoints[0]!)).toEqual([200, 400, 413, 415]);
    const read = staffEndpoint({ method: "get", path: "/list", guard: "orders.read", summary: "x", answers: { 404: "No such list" }, handle: async () => ok("read") });
    expect(statuses(read)).toEqual([200, 400, 401, 403, 404]);
    const intake = serviceEndpoint({ method: "post", path: "/in", summary: "x", body: Echo, answers: { 409: "Placed already" }, handle: async () => ok("placed") });
    expect(statuses(intake)).toEqual([200, 400, 401, 409, 413, 415]);
    // A status both answer has both meanings.
    const both = publicEndpoint({ method: "get", path: "/both", summary: "x", answers: { 400: "The handler's own reason" }, handle: async () => ok("read") });
    expect(both.answers[400]).toMatch(/not JSON.*; or: The handler's own reason$/);
  });
});
