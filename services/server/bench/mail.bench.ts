import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase } from "@etd/infra/test-database";
import { startSesEmulator } from "@etd/infra/ses-emulator";
import { sesMailer } from "@etd/mail";
import { MAILS_IN_FLIGHT } from "@etd/reactors";
import pg from "pg";
import { openRuntime } from "../src/runtime.ts";
import { placeMailRequests } from "../test/support/mail-requests.ts";

/*
 * P10 (issue 12): mails per second through the mail reactor to the SES emulator, against direct
 * SDK calls to the same emulator in the same run. Both sides hand over the same number of mails
 * with the same number in flight (the reactor's concurrency, 8); the reactor also records each
 * attempt before the call and the answer after it, reads the order and renders the template.
 * The direct side runs before and after the reactor's, and the ratio is taken against both, so a
 * load that changes during the run weighs on both sides alike.
 * Last line: `P10 reactor_vs_direct=<ratio>`; goal ≥ 0.5.
 */

const MAILS = Number(process.env.P10_MAILS ?? 400);
const IN_FLIGHT = MAILS_IN_FLIGHT;

/*
 * P10_COUNT=1 counts the database round trips of the reactor's side by statement, and the commits
 * among them (a write outside BEGIN, or a COMMIT): where a mail's time goes when the database is
 * the bound. pg_stat_statements is not available on the test clusters, so the driver is counted.
 */
const counting = process.env.P10_COUNT === "1";
const counts = new Map<string, { trips: number; commits: number }>();
let countOn = false;
if (counting) {
  const inTransaction = new WeakSet<object>();
  // Called with the client as `this`, as pg calls it.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; name?: string; values?: unknown[] };
    const text = (typeof config === "string" ? config : (config.text ?? "")).trim().replace(/\s+/g, " ");
    const verb = text.split(" ")[0]!.toLowerCase();
    if (countOn) {
      // A checkpoint or lease is told apart by the reactor it is for.
      const values = (typeof config === "object" && "values" in config ? config.values : args[1]) as unknown[] | undefined;
      const owner = /reactor_(checkpoints|leases)/.test(text) ? ` [${String(values?.[0])}]` : "";
      const label = ((typeof config === "object" && config.name) || text.slice(0, 60)) + owner;
      const entry = counts.get(label) ?? { trips: 0, commits: 0 };
      entry.trips += 1;
      // NOTIFY assigns a transaction id but writes nothing durable: it is no commit to wait for.
      const writes = /^(insert|update|delete)$/.test(verb) || /\bes_(append|append_with_key|seal)\(/.test(text);
      if (verb === "commit" || (writes && !inTransaction.has(this))) entry.commits += 1;
      counts.set(label, entry);
    }
    if (verb === "begin") inTransaction.add(this);
    if (verb === "commit" || verb === "rollback") inTransaction.delete(this);
    return original.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

const SES = { region: "us-east-1", accessKeyId: "AKIDLOCALTEST", secretAccessKey: "local-test-secret" };

const main = async () => {
  const ses = await startSesEmulator();
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-p10-"));
  const runtime = await openRuntime({
    databaseUrl: database.url,
    dataDir,
    jwtSecret: "benchmark-secret-that-is-long-enough-000",
    sessionTtlSeconds: 3600,
    intakeToken: undefined,
    maxUploadBytes: 1 << 20,
    // The emulator itself: the proxy that tests use to read tags would be in the way of both sides.
    mail: { ses: { ...SES, endpoint: ses.emulatorUrl } },
    mailing: { reminderAfterMs: 3_600_000 * 720 },
  });
  try {
    // Direct: the SES adapter the reactor uses, same mails in size, 8 in flight.
    const mailer = sesMailer({ ...SES, endpoint: ses.emulatorUrl });
    const direct = async (count: number) => {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          const n = next++;
          await mailer.send({
            messageId: `<direct-${n}@bench.local>`,
            from: "ETD <no-reply@etd.example>",
            to: `traveller${n}@example.com`,
            subject: `Your document for order ${700_000 + n} is ready`,
            text: "Your travel declaration has been processed and your document is ready.\n".repeat(6),
            html: `<p>${"Your travel declaration has been processed and your document is ready. ".repeat(6)}</p>`,
            tags: { eventId: `direct-${n}`, orderId: String(700_000 + n) },
          });
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      return performance.now() - started;
    };
    /** The direct side, on an emptied emulator as the reactor's side finds it. */
    const measureDirect = async () => {
      await ses.clear();
      const cpuAtStart = process.cpuUsage();
      const ms = await direct(MAILS);
      if (counting) {
        const { user, system } = process.cpuUsage(cpuAtStart);
        console.log(`direct: this process's CPU ${((user + system) / 1000 / MAILS).toFixed(2)} ms per mail`);
      }
      await ses.clear();
      return ms;
    };
    await direct(50); // warm-up: connections, the SDK's first-call setup
    // Measured before and after the reactor's side: on a shared machine the load drifts, and the
    // ratio compares the reactor with the direct calls on either side of it.
    const directBeforeMs = await measureDirect();

    await placeMailRequests(runtime, { orders: MAILS / 10, perOrder: 10, firstId: 800_000 });
    countOn = counting;
    // P10_PROFILE=<file>: a CPU profile of this process while the reactor sends, for DevTools.
    const profiler = process.env.P10_PROFILE ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    const cpuBefore = process.cpuUsage();
    const started = Date.now();
    await runtime.startReactors();
    // The end is when the last MailSent was recorded (the database's clock is this machine's), so
    // looking for it seldom costs the side being measured little and adds nothing to its time.
    let lastSentAt: number | undefined;
    while (lastSentAt === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [row] = await runtime.driver.query("select count(*)::int as sent, max(recorded_at) as last from es_events where type = 'MailSent'");
      if (row?.sent === MAILS) lastSentAt = new Date(row.last as string | Date).getTime();
    }
    const reactorMs = lastSentAt - started;
    const cpu = process.cpuUsage(cpuBefore);
    countOn = false;
    if (profiler) {
      const { profile } = await profiler.post("Profiler.stop");
      await writeFile(process.env.P10_PROFILE!, JSON.stringify(profile));
      profiler.disconnect();
    }
    const stored = (await ses.stored()).length;
    if (stored !== MAILS) throw new Error(`the emulator holds ${stored} messages, expected ${MAILS}`);
    const directAfterMs = await measureDirect();

    const directRate = ((2 * MAILS) / (directBeforeMs + directAfterMs)) * 1000;
    const reactorRate = (MAILS / reactorMs) * 1000;
    console.log(`direct SDK calls: ${MAILS} mails in ${directBeforeMs.toFixed(0)} ms before and ${directAfterMs.toFixed(0)} ms after (${directRate.toFixed(0)}/s, ${IN_FLIGHT} in flight)`);
    console.log(`through the reactor: ${MAILS} mails in ${reactorMs.toFixed(0)} ms (${reactorRate.toFixed(0)}/s), each recorded queued and sent`);
    if (counting) {
      // The bench's own look for the end (every 100 ms) is among them.
      const rows = [...counts].sort((a, b) => b[1].trips - a[1].trips);
      for (const [label, { trips, commits }] of rows) console.log(`${(trips / MAILS).toFixed(2).padStart(7)} trips ${(commits / MAILS).toFixed(2).padStart(6)} commits per mail  ${label}`);
      const total = rows.reduce((sum, [, entry]) => ({ trips: sum.trips + entry.trips, commits: sum.commits + entry.commits }), { trips: 0, commits: 0 });
      console.log(`per mail: ${(total.trips / MAILS).toFixed(2)} round trips, ${(total.commits / MAILS).toFixed(2)} commits`);
      console.log(`this process's CPU meanwhile: ${((cpu.user + cpu.system) / 1000 / MAILS).toFixed(2)} ms per mail, ${(((cpu.user + cpu.system) / 1000 / reactorMs) * 100).toFixed(0)}% of one core`);
    }
    console.log(`P10 reactor_vs_direct=${(reactorRate / directRate).toFixed(2)}`);
  } finally {
    await runtime.close();
    await database.drop();
    await ses.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
