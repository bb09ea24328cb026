import { createReadStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { verifyExport } from "../src/chain/export-file.ts";
import { verifyStoredChain } from "../src/chain/stored-chain.ts";
import { openPgliteDriver } from "../src/pglite/pglite-event-store.ts";
import { openPostgresDriver } from "../src/postgres/postgres-event-store.ts";
import type { ChainBreak } from "../src/chain/event-chain.ts";

/*
 * `npm run audit:verify` (issue 14, ADR 0021): walks the stored log on DATABASE_URL, or on the
 * embedded database in DATA_DIR when the app is not running, recomputes both hash chains and names
 * the first event that does not match. `npm run audit:verify -- --file <export.jsonl>` verifies an
 * export instead, with no database. Exit 0 when intact, 1 when not, 2 when it could not run.
 */

const describe = (broken: ChainBreak) =>
  `${broken.streamId} #${broken.streamPosition} (event ${broken.eventId || "?"}): ${broken.reason}`;

const main = async (): Promise<number> => {
  const args = process.argv.slice(2);
  const fileAt = args.indexOf("--file");
  if (fileAt >= 0) {
    const file = args[fileAt + 1];
    if (!file) throw new Error("usage: audit:verify [--file <export.jsonl>]");
    const report = await verifyExport(createInterface({ input: createReadStream(file), crlfDelay: Infinity }));
    if (report.unreadable) {
      console.log(`NOT VERIFIED: ${report.unreadable}`);
      return 1;
    }
    if (report.firstBreak) {
      console.log(`TAMPERED at line ${report.line}: ${describe(report.firstBreak)} (${report.checked} events matched before it)`);
      return 1;
    }
    console.log(`OK: ${report.checked} events, ${report.sealed} of them sealed; chain head ${report.head ?? "(none)"}`);
    console.log(`Compare the head with one kept outside the system to know nothing after it was rewritten.`);
    return 0;
  }
  const driver = process.env.DATABASE_URL
    ? await openPostgresDriver({ connectionString: process.env.DATABASE_URL, maxConnections: 2 })
    : await (async () => {
        const dir = path.join(path.resolve(process.env.DATA_DIR || "./data"), "pglite");
        await mkdir(dir, { recursive: true });
        return openPgliteDriver(dir);
      })();
  try {
    const started = performance.now();
    const report = await verifyStoredChain(driver);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (report.firstBreak) {
      console.log(`TAMPERED: ${describe(report.firstBreak)} (${report.checked} events matched before it; ${seconds} s)`);
      return 1;
    }
    const unsealed = report.checked - report.sealed;
    console.log(`OK: ${report.checked} events verified in ${seconds} s; chain head ${report.head}` + (unsealed ? ` (${unsealed} newest not sealed yet)` : ""));
    return 0;
  } finally {
    await driver.close();
  }
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
