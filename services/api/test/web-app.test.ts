import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mountWebApp, type WebAppOptions } from "../src/web-app.ts";

/** An app serving a built web app from `dist`, with an API route and an API 404 as createApp has. */
const serve = async (dist: string, options: Partial<WebAppOptions> = {}) => {
  const app = express();
  app.get("/api/ping", (_req, res) => void res.json({ status: 1 }));
  app.use("/api", (_req, res) => void res.status(404).json({ status: 0 }));
  mountWebApp(app, { dist, https: false, ...options });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
};

/** Above compression's 1 KB threshold, as every real asset is. */
const ASSET = `console.log(${JSON.stringify("x".repeat(2000))});`;

const TRACK_HTML = '<meta name="translate-widget" content="" /><div id="track"></div>';

describe("the API serves the built web app", () => {
  let dist: string;
  let served: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), "etd-web-dist-"));
    await mkdir(path.join(dist, "assets"));
    await writeFile(path.join(dist, "index.html"), '<div id="root"></div>');
    await writeFile(path.join(dist, "track.html"), TRACK_HTML);
    await writeFile(path.join(dist, "assets", "index-abc123.js"), ASSET);
    await writeFile(path.join(dist, "favicon.svg"), "<svg/>");
    served = await serve(dist);
  });

  afterAll(async () => {
    await served?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it("answers the app's own routes and deep links with index.html, revalidated on every load", async () => {
    for (const route of ["/", "/admin", "/admin/view-order/100234", "/logout", "/track-orders"]) {
      const response = await fetch(`${served.base}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toBe('<div id="root"></div>');
    }
  });

  it("answers the traveller's pages with the public entry, which names no widget when none is configured (PUBLIC-1..3)", async () => {
    for (const route of ["/track-order/100234", "/get-new-order-details/100234", "/track-order"]) {
      const response = await fetch(`${served.base}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toBe(TRACK_HTML);
    }
  });

  it("names a configured translation widget on the public pages only, and widens only their policy (PUBLIC-3)", async () => {
    const widget = await serve(dist, { translateWidget: { scriptUrl: "https://translate.example/element.js?cb=init&x=\"<", origins: ["https://static.translate.example"] } });
    try {
      const page = await fetch(`${widget.base}/track-order/100234`);
      expect(await page.text()).toBe(TRACK_HTML.replace('content=""', 'content="https://translate.example/element.js?cb=init&amp;x=&quot;&lt;"'));
      const policy = page.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("script-src 'self' https://translate.example https://static.translate.example;");
      expect(policy).toContain("frame-ancestors 'none'");
      const console = await fetch(`${widget.base}/admin`);
      expect(await console.text()).toBe('<div id="root"></div>');
      expect(console.headers.get("content-security-policy")).toBeNull();
    } finally {
      await widget.close();
    }
  });

  it("sends the app's files and pages compressed to a browser that accepts it (the public pages' load time, issue 13)", async () => {
    for (const [route, encoding] of [["/assets/index-abc123.js", "br"], ["/assets/index-abc123.js", "gzip"]] as const) {
      const response = await fetch(`${served.base}${route}`, { headers: { "accept-encoding": encoding } });
      expect(response.headers.get("content-encoding"), route).toBe(encoding);
      expect(response.headers.get("vary"), route).toMatch(/accept-encoding/i);
    }
    const plain = await fetch(`${served.base}/assets/index-abc123.js`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(ASSET);
  });

  it("lets browsers keep content-hashed assets for a year, and revalidate other files", async () => {
    const asset = await fetch(`${served.base}/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const icon = await fetch(`${served.base}/favicon.svg`);
    expect(icon.headers.get("cache-control")).toBe("no-cache");
  });

  it("never answers the API, metrics, uploads or a missing asset with the app", async () => {
    expect(await (await fetch(`${served.base}/api/ping`)).json()).toEqual({ status: 1 });
    expect((await fetch(`${served.base}/api/admin/nothing`)).status).toBe(404);
    for (const route of ["/metrics", "/uploads/docs/1/a.pdf", "/assets/missing-000.js"]) {
      expect((await fetch(`${served.base}${route}`)).status, route).toBe(404);
    }
    expect((await fetch(`${served.base}/admin`, { method: "POST" })).status).toBe(404);
  });

  it("serves nothing and says how to build when the app has not been built", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const app = express();
    mountWebApp(app, { dist: path.join(dist, "does-not-exist"), https: false });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("npm run build -w @etd/web"));
    warn.mockRestore();
  });
});
