import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildWeb } from "../scripts/build-if-stale.ts";

/*
 * P6: how much JavaScript a browser downloads before the sign-in page or a queue page can show,
 * gzip-compressed as it travels. That is the entry module named by dist/index.html plus every
 * module it imports statically (Vite's manifest lists both), not the chunks loaded lazily when
 * a route is opened. Goal: at most 250 KB. The last line is the figure, for scripts to read.
 */

const DIST = fileURLToPath(new URL("../dist", import.meta.url));

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
}

/** The JS files loaded at start: the entry chunk and its static imports, transitively. */
export const initialChunks = (manifest: Record<string, ManifestChunk>, entryFile: string): string[] => {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.file === entryFile);
  if (!entryKey) throw new Error(`the manifest has no chunk for ${entryFile}`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return [...seen].map((key) => manifest[key]!.file);
};

/** The module script index.html starts, e.g. "assets/index-abc123.js". */
export const entryScript = (html: string): string => {
  const match = /<script[^>]*type="module"[^>]*src="\/?([^"]+)"/.exec(html);
  if (!match) throw new Error("dist/index.html names no module script");
  return match[1]!;
};

const main = () => {
  buildWeb();
  const html = readFileSync(path.join(DIST, "index.html"), "utf8");
  const manifest = JSON.parse(readFileSync(path.join(DIST, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const files = initialChunks(manifest, entryScript(html)).filter((file) => file.endsWith(".js"));
  let total = 0;
  console.log("\nInitial JavaScript (gzip, zlib default level):");
  for (const file of files) {
    const size = gzipSync(readFileSync(path.join(DIST, file))).length;
    total += size;
    console.log(`  ${file.padEnd(48)} ${(size / 1024).toFixed(1).padStart(8)} KB`);
  }
  const lazy = Object.values(manifest).filter((chunk) => chunk.file.endsWith(".js") && !files.includes(chunk.file)).length;
  console.log(`  (${lazy} lazily loaded chunk${lazy === 1 ? "" : "s"} not counted)`);
  console.log(`Goal: at most 250 KB.`);
  console.log(`P6 initial_js_kb_gz=${(total / 1024).toFixed(1)}`);
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
