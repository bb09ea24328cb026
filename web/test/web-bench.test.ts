import "./support/memory-storage.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { benchSession, measureFiles, p6Lines, stubAnswer } from "../bench/web.bench.ts";
import { decodeToken } from "../src/lib/session.ts";

describe("P6: the JavaScript a page loads, measured in the browser", () => {
  it("prints the figures as `P6 signin_js_kb_gz=<n> queue_js_kb_gz=<n> public_js_kb_gz=<n>`, then the ratio against the unsplit bundle last", () => {
    expect(p6Lines({ signin: 113.64, queue: 196.5, public: 77.25 }, { signin: 205.5, queue: 205.5, public: 80 })).toEqual([
      "P6 signin_js_kb_gz=113.6 queue_js_kb_gz=196.5 public_js_kb_gz=77.3",
      "P6 signin_vs_unsplit=0.553 queue_vs_unsplit=0.956 public_vs_unsplit=0.966",
    ]);
  });

  it("counts each requested file once, at its gzip size", () => {
    const dist = mkdtempSync(path.join(tmpdir(), "etd-p6-"));
    try {
      const text = "export const x = 1;\n".repeat(200);
      writeFileSync(path.join(dist, "a.js"), text);
      writeFileSync(path.join(dist, "b.js"), "export{}");
      const measured = measureFiles(dist, ["a.js", "b.js", "a.js"]);
      expect(measured.files.map((f) => f.file)).toEqual(["a.js", "b.js"]);
      expect(measured.kbGz * 1024).toBe(gzipSync(text).length + gzipSync("export{}").length);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("opens the queue page with a session the app itself accepts, over a stub API that lists nothing", () => {
    const { accessToken } = JSON.parse(benchSession()) as { accessToken: string };
    expect(decodeToken(accessToken)).toEqual({ id: "1", name: "Bench Admin", role: "Admin" });
    expect(JSON.parse(stubAnswer("/api/admin/get-orders-list/newOrder?page=1").body)).toMatchObject({ status: 1, data: [], total: 0 });
    expect(stubAnswer("/api/live").status).toBe(204);
  });
});
