import { describe, expect, it } from "vitest";
import type * as Schema from "effect/Schema";
import * as Requests from "../src/requests/index.ts";
import { AREAS, ENDPOINTS, type EndpointDeclaration } from "../src/endpoints/index.ts";
import { isAllowed, PERMISSIONS, READ_MODELS, ROLES } from "../src/index.ts";

/*
 * Issue 26, ADR 0033: every endpoint's one declaration states what the API binds, the OpenAPI
 * document lists and the web app derives read-your-writes from. Checked here as data, so that a
 * declaration missing a fact fails before any server runs.
 */

const declared = Object.entries(ENDPOINTS) as [string, EndpointDeclaration][];
const isStaff = (endpoint: EndpointDeclaration) => endpoint.guard !== "public" && endpoint.guard !== "service";
const isQuery = (endpoint: EndpointDeclaration) => endpoint.method === "get" || endpoint.readOnly === true;
const fieldsOf = (name: string | undefined) =>
  Object.keys((Requests as unknown as Record<string, Schema.Top & { readonly fields?: object }>)[name ?? ""]?.fields ?? {});

describe("ADR 0033: each endpoint declared once, completely", () => {
  it("no two areas declare the same name (ENDPOINTS would keep only one)", () => {
    const names = AREAS.flatMap((area) => Object.keys(area));
    expect(names.length).toBe(Object.keys(ENDPOINTS).length);
  });

  it("routes are unique per method and path, and every path parameter is declared in params", () => {
    const routes = declared.map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    for (const [name, endpoint] of declared) {
      const parameters = [...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
      expect(fieldsOf(endpoint.params).sort(), name).toEqual(parameters.sort());
      expect(endpoint.body !== undefined && endpoint.query !== undefined, `${name} reads a body or a query, not both`).toBe(false);
      if (endpoint.method === "get") expect(endpoint.body, `${name}: a GET has no body`).toBeUndefined();
    }
  });

  it("every schema it names is a request schema of the contract", () => {
    for (const [name, endpoint] of declared) {
      for (const schema of [endpoint.body, endpoint.query, endpoint.params, endpoint.form?.fields]) {
        if (schema !== undefined) expect(Requests, `${name}: ${schema}`).toHaveProperty(schema);
      }
    }
  });

  it("a staff query names the read models it reads, a staff command those it changes; each one a real read model", () => {
    const missing = declared.filter(([, endpoint]) => isStaff(endpoint) && (isQuery(endpoint) ? endpoint.reads === undefined : endpoint.changes === undefined));
    expect(missing.map(([name]) => name)).toEqual([]);
    for (const [name, endpoint] of declared) {
      for (const model of [...(endpoint.reads ?? []), ...(endpoint.changes ?? [])]) expect(READ_MODELS, name).toContain(model);
      if (isQuery(endpoint)) expect(endpoint.changes, `${name} is a query: it changes nothing`).toBeUndefined();
    }
  });

  it("every staff guard is an action of the permission matrix that some role holds", () => {
    for (const [name, endpoint] of declared) {
      if (!isStaff(endpoint)) continue;
      expect(PERMISSIONS, name).toHaveProperty(endpoint.guard);
      expect(ROLES.some((role) => isAllowed(role, endpoint.guard as keyof typeof PERMISSIONS)), name).toBe(true);
    }
  });
});
