import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateDemoOrders } from "@etd/demo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiProcess, type ApiProcess } from "./support/api-process.ts";

const INTAKE_TOKEN = "intake-token-for-the-data-dir-test-0123456789";
const DEMO_PASSWORD = "data-dir-demo-password";
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

interface Entry {
  readonly path: string;
  readonly kind: "dir" | "file";
  /** Permission bits only, e.g. 0o600. */
  readonly mode: number;
}

/** DATA_DIR itself and everything under it, without following links. */
const walk = async (dir: string): Promise<Entry[]> => {
  const entries: Entry[] = [{ path: dir, kind: "dir", mode: (await lstat(dir)).mode & 0o7777 }];
  for (const child of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!child.isDirectory() && !child.isFile()) continue;
    const full = path.join(child.parentPath, child.name);
    entries.push({ path: full, kind: child.isDirectory() ? "dir" : "file", mode: (await lstat(full)).mode & 0o7777 });
  }
  return entries;
};

/** Every entry whose mode is not owner-only, as readable lines (empty when all are). */
const notOwnerOnly = (entries: readonly Entry[], root: string) =>
  entries
    .filter((e) => e.mode !== (e.kind === "dir" ? 0o700 : 0o600))
    .map((e) => `${e.kind} ${path.relative(root, e.path) || "."} is ${e.mode.toString(8)}`);

/**
 * Issue 9 item 10: `npm start` (src/main.ts as its own process) on the embedded database leaves
 * DATA_DIR and everything under it readable by its owner only: directories 0700, files 0600:
 * the PGlite files (password hashes, order keys), the generated session secret, uploaded
 * documents. An install made before the rule (0777 directories, 0666 files) is tightened on
 * its next start.
 */
describe("issue 9 item 10: DATA_DIR is its owner's only", () => {
  let root: string;
  let dataDir: string;
  let settings: Record<string, string>;
  const running: ApiProcess[] = [];

  const start = async () => {
    // The guard only bounds a hang of the first start, which seeds the demo.
    const api = await startApiProcess(settings, { startTimeoutMs: 600_000 });
    running.push(api);
    return api;
  };

  /** Ends the process the way an operator does, so the embedded database closes cleanly. */
  const stop = async (api: ApiProcess) => {
    api.kill("SIGTERM");
    const timer = setTimeout(() => void api.stop(), 20_000);
    await api.exited;
    clearTimeout(timer);
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "etd-data-dir-"));
    // Not created beforehand: the API creates it.
    dataDir = path.join(root, "data");
    // Demo mode without JWT_SECRET: the session secret is generated into DATA_DIR.
    // 100 demo orders write every kind of file the full 2,000 do, in a fraction of the time.
    settings = { DEMO: "1", DEMO_ORDERS: "100", DEMO_PASSWORD, INTAKE_TOKEN, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir };
  });

  afterAll(async () => {
    for (const api of running) await api.stop();
    await rm(root, { recursive: true, force: true });
  });

  it("after the first start (demo data seeded) and an upload, every directory is 0700 and every file 0600", async () => {
    const api = await start();
    expect(api.output()).toContain("event store: pglite");

    // A document uploaded after start: files created while serving are owner-only too.
    const login = await fetch(`${api.base}/api/admin/admin-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@demo.local", password: DEMO_PASSWORD }),
    });
    const token = ((await login.json()) as { jwtToken: string }).jwtToken;
    const [body] = generateDemoOrders({ seed: 7, count: 1, now: new Date() });
    const orderId = "9100001";
    const placed = await fetch(`${api.base}/api/intake/orders`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${INTAKE_TOKEN}` },
      body: JSON.stringify({ ...body, order_id: orderId, processing_date: new Date().toISOString().slice(0, 10) }),
    });
    expect(placed.status, await placed.text()).toBe(200);
    const form = new FormData();
    form.append("orderId", orderId);
    form.append("email", "traveller@example.com");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), "visa.pdf");
    const uploaded = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: token } });
    expect(uploaded.status, await uploaded.text()).toBe(200);

    const entries = await walk(dataDir);
    const files = entries.filter((e) => e.kind === "file").map((e) => path.relative(dataDir, e.path));
    // The walk saw what it is about: the database, the secret and the document.
    expect(files.filter((f) => f.startsWith(`pglite${path.sep}`)).length).toBeGreaterThan(100);
    expect(files).toContain("session-secret");
    expect(files.some((f) => f.startsWith(path.join("uploads", "docs", orderId)))).toBe(true);
    expect(notOwnerOnly(entries, dataDir)).toEqual([]);

    await stop(api);
  }, 900_000);

  it("an install made before the rule (0777 directories, 0666 files) is tightened on its next start", async () => {
    const extra = path.join(dataDir, "uploads", "left-by-an-old-version.txt");
    await writeFile(extra, "old");
    for (const entry of await walk(dataDir)) await chmod(entry.path, entry.kind === "dir" ? 0o777 : 0o666);
    const loosened = await walk(dataDir);
    // The precondition: everything is readable by anyone now.
    expect(loosened.every((e) => e.mode === (e.kind === "dir" ? 0o777 : 0o666))).toBe(true);
    expect(notOwnerOnly(loosened, dataDir).length).toBe(loosened.length);

    const api = await start();
    const entries = await walk(dataDir);
    expect(entries.map((e) => e.path)).toContain(extra);
    expect(notOwnerOnly(entries, dataDir)).toEqual([]);
    // And it still works on the tightened files: the demo admin signs in.
    const login = await fetch(`${api.base}/api/admin/admin-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@demo.local", password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    await stop(api);
  }, 900_000);

  it("refuses to start on a shared directory (sticky bit, like /tmp) rather than change its modes", async () => {
    const shared = path.join(root, "shared");
    await rm(shared, { recursive: true, force: true });
    await mkdir(shared);
    await chmod(shared, 0o1777);
    await expect(startApiProcess({ ...settings, DATA_DIR: shared }, { startTimeoutMs: 60_000 })).rejects.toThrow(/shared directory \(sticky bit\)/);
    expect((await lstat(shared)).mode & 0o7777).toBe(0o1777);
  }, 90_000);
});
