import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { mailStream } from "@etd/events";
import { createTestDatabase } from "@etd/infra/test-database";
import { startSesEmulator } from "@etd/infra/ses-emulator";
import { sesMailer } from "@etd/mail";
import { loadStream, mailDecider } from "@etd/write";
import { MAILS_IN_FLIGHT } from "@etd/reactors";
import { openRuntime } from "../src/runtime.ts";
import { placeMailRequests } from "../test/support/mail-requests.ts";

/*
 * P10 (issue 12): mails per second through the mail reactor to the SES emulator, against direct
 * SDK calls to the same emulator in the same run. Both sides hand over the same number of mails
 * with the same number in flight (the reactor's concurrency, 8); the reactor also records each
 * attempt before the call and the answer after it, reads the order and renders the template.
 * Last line: `P10 reactor_vs_direct=<ratio>`; goal ≥ 0.5.
 */

const MAILS = Number(process.env.P10_MAILS ?? 400);
const IN_FLIGHT = MAILS_IN_FLIGHT;
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
    await direct(50); // warm-up: connections, the SDK's first-call setup
    const directMs = await direct(MAILS);
    await ses.clear();

    const requests = await placeMailRequests(runtime, { orders: MAILS / 10, perOrder: 10, firstId: 800_000 });
    const started = performance.now();
    await runtime.startReactors();
    const last = requests.at(-1)!;
    for (;;) {
      const { state } = await loadStream(runtime.deps.store, mailStream(last.mailId), mailDecider);
      if (state.stage === "sent" && (await ses.stored()).length >= MAILS) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const reactorMs = performance.now() - started;
    const stored = (await ses.stored()).length;
    if (stored !== MAILS) throw new Error(`the emulator holds ${stored} messages, expected ${MAILS}`);

    const directRate = (MAILS / directMs) * 1000;
    const reactorRate = (MAILS / reactorMs) * 1000;
    console.log(`direct SDK calls: ${MAILS} mails in ${directMs.toFixed(0)} ms (${directRate.toFixed(0)}/s, ${IN_FLIGHT} in flight)`);
    console.log(`through the reactor: ${MAILS} mails in ${reactorMs.toFixed(0)} ms (${reactorRate.toFixed(0)}/s), each recorded queued and sent`);
    console.log(`P10 reactor_vs_direct=${(reactorRate / directRate).toFixed(2)}`);
  } finally {
    await runtime.close();
    await database.drop();
    await ses.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
