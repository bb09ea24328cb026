import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mountWebApp } from "../src/web-app.ts";

/** An app serving a built web app from `dist`, with an API route and an API 404 as createApp has. */
const serve = async (dist: string) => {
  const app = express();
  app.get("/api/ping", (_req, res) => void res.json({ status: 1 }));
  app.use("/api", (_req, res) => void res.status(404).json({ status: 0 }));
  mountWebApp(app, dist);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
};

describe("the API serves the built web app", () => {
  let dist: string;
  let served: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), "etd-web-dist-"));
    await mkdir(path.join(dist, "assets"));
    await writeFile(path.join(dist, "index.html"), '<div id="root"></div>');
    await writeFile(path.join(dist, "assets", "index-abc123.js"), "console.log(1)");
    await writeFile(path.join(dist, "favicon.svg"), "<svg/>");
    served = await serve(dist);
  });

  afterAll(async () => {
    await served?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it("answers the app's own routes and deep links with index.html, revalidated on every load", async () => {
    for (const route of ["/", "/admin", "/admin/view-order/100234", "/track-order/100234", "/logout"]) {
      const response = await fetch(`${served.base}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toBe('<div id="root"></div>');
    }
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
    mountWebApp(app, path.join(dist, "does-not-exist"));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("npm run build -w @etd/web"));
    warn.mockRestore();
  });
});
