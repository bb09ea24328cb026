import { createApp, createFirstAdmin, createHttpServer, createProbeApp, DEMO_STAFF, generatePassword, seedDemo } from "@etd/api";
import { mailerFor } from "@etd/mail";
import { startTracingFromEnv } from "@etd/telemetry";
import { ConfigError, readConfig } from "./config.ts";
import { DataDirError, OWNER_ONLY_UMASK, restrictToOwner } from "./data-dir.ts";
import { openRuntime, sessionSecret } from "./runtime.ts";

/**
 * `npm start`: every service in one process, on PGlite under DATA_DIR unless DATABASE_URL is set.
 * `npm run serve` with RUN naming some roles: this process runs only those (DESIGN §9, ADR 0023).
 */
const main = async () => {
  // Before anything creates a file: whatever this process creates is its owner's only (issue 9
  // item 10). Then DATA_DIR is tightened as it stands (installs made before this rule), and again
  // once the embedded database is open: PGlite sets its own files' modes when it unpacks them.
  process.umask(OWNER_ONLY_UMASK);
  const config = readConfig(process.env);
  // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT names a collector (ADR 0041); otherwise none are recorded.
  const tracing = startTracingFromEnv(process.env);
  await restrictToOwner(config.dataDir);
  const runtime = await openRuntime({ ...config, jwtSecret: await sessionSecret(config) });
  await restrictToOwner(config.dataDir);
  const { deps } = runtime;
  const { roles } = config;

  // The first accounts come with the API: a projector or relay alone never creates them.
  if (roles.has("api") && (await deps.credentials.isEmpty())) {
    if (config.demo) {
      const password = config.demoPassword ?? generatePassword();
      const started = Date.now();
      console.log("First start in demo mode: adding demo staff, gateways and orders…");
      const { orders } = await seedDemo(deps, { password, orderCount: config.demoOrders, publicUrl: config.mailing.publicUrl, reminderAfterHours: config.mailing.reminderAfterMs / 3_600_000 });
      console.log(`Demo data ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${orders} orders.`);
      console.log("Demo staff (one per role):");
      for (const member of DEMO_STAFF) console.log(`  ${member.role.padEnd(11)} ${member.email}`);
      console.log(config.demoPassword ? "  password: the one in DEMO_PASSWORD" : `  password: ${password}   (set DEMO_PASSWORD to choose it)`);
    } else if (config.firstAdmin) {
      try {
        await createFirstAdmin(deps, config.firstAdmin);
        console.log(`Created the first admin, ${config.firstAdmin.email}.`);
      } catch (error) {
        // Another API process starting beside this one created it first (accounts are added one at a time).
        if (await deps.credentials.isEmpty()) throw error;
        console.log("The first admin was created by another process.");
      }
    } else {
      console.warn("No staff account exists: set FIRST_ADMIN_EMAIL and FIRST_ADMIN_PASSWORD to create the first admin.");
    }
  }

  if (roles.has("reactors")) for (const provider of ["AWS", "Sendgrid"] as const) console.log(mailerFor(provider, config.mail).description);
  if (roles.has("projector")) await (await runtime.startProjectors()).ready;
  if (roles.has("reactors")) await runtime.startReactors();
  if (roles.has("relay") && config.kafka) await runtime.startRelay(config.kafka);

  const server = createHttpServer(roles.has("api") ? createApp(deps) : createProbeApp(deps)).listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    const where = deps.eventStoreKind === "pglite" ? ` in ${config.dataDir}` : "";
    console.log(`Listening on http://${config.host}:${port} (event store: ${deps.eventStoreKind}${where}; running ${[...roles].join(", ")})`);
  });

  const stop = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    server.close();
    await runtime.close();
    await tracing?.stop();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
};

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DataDirError ? error.message : error);
  process.exit(1);
});
