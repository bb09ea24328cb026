import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { startApiProcess } from "@etd/server/test/api-process";
import pg from "pg";
import puppeteer, { type Browser } from "puppeteer-core";
import { CHROMIUM } from "./chromium.ts";

/*
 * What the browser test files of one run share, because each file making its own cost seconds of
 * CPU that nothing asserts on (ADR 0046):
 *
 * - One Chromium. Each file connects to it and works only in browser contexts of its own, which
 *   keep their cookies, storage and cache apart like separate browsers; the file closes them at
 *   its end. Launching and closing a Chromium took about 3 s per file.
 * - One schema per PostgreSQL server: a database an API process has started on once (its
 *   migrations run, every projection's first build live, no account, no event) and then stopped.
 *   Each file's database is a copy of it, with an API process of its own started on it, as it
 *   would start again after a restart. Migrating and building on an empty database took 1.5 to
 *   3 s of every file's start.
 *
 * The vitest run's main process (global-setup.ts) holds both and hands them out over HTTP on
 * loopback; each is made when a file first asks, so a run of pure tests starts neither. The files
 * find it through E2E_SHARED (an environment variable, so the benchmarks, which run without
 * vitest, make their own as before).
 */

const ADDRESS_VARIABLE = "E2E_SHARED";

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-dev-shm-usage",
  "--disable-gpu",
  // Every page stays "in front": pages of other contexts keep their timers and animation
  // frames, which puppeteer's waits and locators rely on.
  "--disable-backgrounding-occluded-windows",
  "--disable-renderer-backgrounding",
  "--disable-background-timer-throttling",
];

/** A Chromium of the caller's own (benchmarks, or a run without the shared one). */
export const launchChromium = (): Promise<Browser> => puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });

export interface RunShared {
  stop(): Promise<void>;
}

/** In the vitest run's main process: serves the shared browser and schemas until `stop`. */
export const startRunShared = async (): Promise<RunShared> => {
  let browser: Promise<Browser> | undefined;
  const templates = new Map<string, Promise<string>>();

  const sharedBrowser = async (): Promise<Browser> => {
    // A browser that crashed is replaced, so one file's crash does not fail every later file.
    if (browser && !(await browser.catch(() => undefined))?.connected) browser = undefined;
    browser ??= launchChromium();
    return browser;
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const answer = async (): Promise<unknown> => {
      if (url.pathname === "/browser") return { wsEndpoint: (await sharedBrowser()).wsEndpoint() };
      if (url.pathname === "/template") {
        const serverUrl = url.searchParams.get("server") ?? "";
        let template = templates.get(serverUrl);
        if (!template) {
          template = makeTemplate(serverUrl);
          templates.set(serverUrl, template);
          // A failed attempt is not kept: the next file tries again.
          template.catch(() => templates.delete(serverUrl));
        }
        return { name: await template };
      }
      throw new Error(`no such thing: ${url.pathname}`);
    };
    answer().then(
      (body) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body)),
      (error: unknown) => response.writeHead(500, { "content-type": "text/plain" }).end(String(error instanceof Error ? (error.stack ?? error.message) : error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the shared services did not listen");
  process.env[ADDRESS_VARIABLE] = `http://127.0.0.1:${address.port}`;

  return {
    stop: async () => {
      delete process.env[ADDRESS_VARIABLE];
      await new Promise((resolve) => server.close(resolve));
      await (await browser?.catch(() => undefined))?.close().catch(() => undefined);
      for (const [serverUrl, template] of templates) {
        const name = await template.catch(() => undefined);
        if (name) await dropTemplate(serverUrl, name).catch((error: unknown) => console.error(`dropping the template ${name} failed`, error));
      }
    },
  };
};

const withDatabase = (serverUrl: string, database: string): string => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

const onServer = async <T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

/** A database the API has started on once and left, then closed to connections: copies only. */
const makeTemplate = async (serverUrl: string): Promise<string> => {
  const name = `etd_template_${randomBytes(6).toString("hex")}`;
  await onServer(serverUrl, (client) => client.query(`create database ${name}`));
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-web-template-"));
  try {
    const api = await startApiProcess({
      DATABASE_URL: withDatabase(serverUrl, name),
      DEMO: "0",
      JWT_SECRET: randomBytes(24).toString("hex"),
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
    });
    // SIGTERM: it stops its projections and reactors and gives up their leases, which a copy
    // would otherwise find held by a process that no longer exists.
    api.kill("SIGTERM");
    const exit = await api.exited;
    if (exit.code !== 0) throw new Error(`the API making the template ended with ${exit.code ?? exit.signal}:\n${api.output()}`);
    await onServer(serverUrl, (client) => client.query(`alter database ${name} with is_template true allow_connections false`));
    return name;
  } catch (error) {
    await dropTemplate(serverUrl, name).catch(() => undefined);
    throw error;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
};

const dropTemplate = (serverUrl: string, name: string) =>
  onServer(serverUrl, async (client) => {
    await client.query(`alter database ${name} with is_template false`);
    await client.query(`drop database if exists ${name} with (force)`);
  });

const ask = async <T>(what: string): Promise<T | undefined> => {
  const address = process.env[ADDRESS_VARIABLE];
  if (!address) return undefined;
  const response = await fetch(`${address}${what}`);
  if (!response.ok) throw new Error(`the run's shared ${what} failed: ${await response.text()}`);
  return (await response.json()) as T;
};

/** The run's Chromium, connected (undefined outside a vitest run: launch one of your own). */
export const connectSharedBrowser = async (): Promise<Browser | undefined> => {
  const answer = await ask<{ wsEndpoint: string }>("/browser");
  return answer && puppeteer.connect({ browserWSEndpoint: answer.wsEndpoint });
};

/** The run's schema on this PostgreSQL server, to copy (undefined outside a vitest run). */
export const sharedTemplate = async (serverUrl: string): Promise<string | undefined> =>
  (await ask<{ name: string }>(`/template?server=${encodeURIComponent(serverUrl)}`))?.name;
