import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import path from "node:path";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@etd/api/internal/app.ts";
import { WEB_DIST } from "@etd/api/internal/web-app.ts";
import { buildWebIfStale } from "../../../web/scripts/build-if-stale.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

/** The policy as a browser reads it: directive name to its sources. */
const parsePolicy = (header: string | null): Map<string, string[]> => {
  expect(header, "Content-Security-Policy is missing").toBeTruthy();
  return new Map(
    header!
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
};

/**
 * What every answer must carry (issue 9 item 9): a CSP that runs only our own scripts (no
 * inline script, no eval) and lets no one frame us, nosniff, a Referrer-Policy, no framing by
 * the older header either. `where` names the request in failure messages.
 */
const expectSecurityHeaders = (response: Response, where: string) => {
  const policy = parsePolicy(response.headers.get("content-security-policy"));
  expect(policy.get("script-src"), where).toEqual(["'self'"]);
  expect(policy.get("script-src-attr"), where).toEqual(["'none'"]);
  expect(policy.get("default-src"), where).toEqual(["'self'"]);
  expect(policy.get("object-src"), where).toEqual(["'none'"]);
  expect(policy.get("frame-ancestors"), where).toEqual(["'none'"]);
  expect(policy.get("base-uri"), where).toEqual(["'self'"]);
  for (const [name, sources] of policy) {
    expect(sources, `${where}: ${name} allows inline code or eval`).not.toContain("'unsafe-inline'");
    expect(sources, `${where}: ${name} allows inline code or eval`).not.toContain("'unsafe-eval'");
  }
  expect(response.headers.get("x-content-type-options"), where).toBe("nosniff");
  expect(["no-referrer", "strict-origin-when-cross-origin"], where).toContain(response.headers.get("referrer-policy"));
  expect(response.headers.get("x-frame-options"), where).toBe("DENY");
  expect(response.headers.get("x-powered-by"), where).toBeNull();
};

describe.skipIf(!available)("issue 9 item 9: security headers on the app and the API", () => {
  let api: TestApi;
  let token: string;
  /** The same app and deps, configured as served behind TLS (TLS=1). */
  let tlsServer: Server;
  let tlsBase: string;

  beforeAll(async () => {
    // The headers must be asserted on the real app's pages, so the app must be built (as
    // `npm start` and the browser tests do it, only when its sources changed).
    buildWebIfStale();
    api = await startTestApi();
    token = await api.login("Admin");
    tlsServer = createApp({ ...api.runtime.deps, secureCookies: true }).listen(0, "127.0.0.1");
    await new Promise((resolve) => tlsServer.once("listening", resolve));
    tlsBase = `http://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    if (tlsServer) await new Promise((resolve) => tlsServer.close(resolve));
    await api?.close();
  });

  it.each(["index.html", "track.html"])("the built app's %s has no inline script, inline style or event-handler attribute, so it runs under script-src 'self'", async (entry) => {
    const html = await readFile(path.join(WEB_DIST, entry), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes, "every script is a file").toMatch(/\bsrc="\/assets\/[^"]+\.js"/);
      expect(body!.trim()).toBe("");
    }
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    // Every file the page loads is ours (relative to the origin), as 'self' requires.
    for (const [, url] of html.matchAll(/\s(?:src|href)="([^"]+)"/gi)) expect(url, url).toMatch(/^\/(?!\/)/);
  });

  it("on / and on /admin/… pages (the app's index.html), and on the app's assets", async () => {
    for (const route of ["/", "/admin", "/admin/view-order/100234", "/track-order/100234", "/get-new-order-details/100234"]) {
      const response = await fetch(`${api.base}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get("content-type"), route).toMatch(/^text\/html/);
      expect(await response.text(), route).toContain('<div id="root"></div>');
      expectSecurityHeaders(response, route);
      expect(response.headers.get("strict-transport-security"), route).toBeNull();
    }
    const html = await readFile(path.join(WEB_DIST, "index.html"), "utf8");
    const script = /<script\b[^>]*\bsrc="([^"]+)"/.exec(html)![1]!;
    const asset = await fetch(`${api.base}${script}`);
    expect(asset.status).toBe(200);
    expectSecurityHeaders(asset, script);
  });

  it("on /api/… answers, each with Cache-Control: no-store: success, refusal, validation error, 404, bad JSON", async () => {
    const requests: [string, string, RequestInit][] = [
      ["signed-in GET", "/api/user_info", { headers: { authorization: token } }],
      ["signed-in list", "/api/admin/get-team-member-list", { headers: { authorization: token } }],
      ["signed-in search", "/api/admin/search-order", { method: "POST", headers: { authorization: token, "content-type": "application/json" }, body: '{"folderName":"New","searchVal":"x"}' }],
      ["no session", "/api/user_info", {}],
      ["sign-in refused", "/api/admin/admin-login", { method: "POST", headers: { "content-type": "application/json" }, body: '{"email":"","password":""}' }],
      ["unknown API path", "/api/admin/does-not-exist", {}],
      ["malformed JSON", "/api/admin/admin-login", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }],
      ["health", "/api/health", {}],
      ["OpenAPI document", "/api/openapi.json", {}],
    ];
    const statuses: number[] = [];
    for (const [name, route, init] of requests) {
      const response = await fetch(`${api.base}${route}`, init);
      statuses.push(response.status);
      expectSecurityHeaders(response, name);
      expect(response.headers.get("cache-control"), name).toBe("no-store");
      expect(response.headers.get("strict-transport-security"), name).toBeNull();
      await response.arrayBuffer();
    }
    // The walk covered answers of every kind, not six copies of one.
    expect(new Set(statuses)).toEqual(new Set([200, 401, 400, 404]));
  });

  it("app pages are not no-store (the app's own caching stays): only the API's answers are", async () => {
    const page = await fetch(`${api.base}/admin`);
    expect(page.headers.get("cache-control")).toBe("no-cache");
  });

  it("HSTS (a year, this host only) and upgrade-insecure-requests only when served behind TLS (TLS=1)", async () => {
    for (const route of ["/", "/admin/view-order/100234", "/api/user_info", "/api/does-not-exist"]) {
      const plain = await fetch(`${api.base}${route}`);
      expect(plain.headers.get("strict-transport-security"), route).toBeNull();
      expect(parsePolicy(plain.headers.get("content-security-policy")).has("upgrade-insecure-requests"), route).toBe(false);

      const secure = await fetch(`${tlsBase}${route}`);
      expectSecurityHeaders(secure, `TLS ${route}`);
      expect(secure.headers.get("strict-transport-security"), route).toBe("max-age=31536000");
      expect(parsePolicy(secure.headers.get("content-security-policy")).get("upgrade-insecure-requests"), route).toEqual([]);
      await Promise.all([plain.arrayBuffer(), secure.arrayBuffer()]);
    }
  });
});
