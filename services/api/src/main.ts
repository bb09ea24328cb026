import { ConfigError, readConfig } from "./config.ts";
import { createApp } from "./app.ts";
import { openRuntime, sessionSecret } from "./runtime.ts";
import { createFirstAdmin, DEMO_STAFF, generatePassword, seedDemo } from "./seed/seed.ts";

/** `npm start`: every service in one process, on PGlite under DATA_DIR unless DATABASE_URL is set. */
const main = async () => {
  const config = readConfig(process.env);
  const runtime = await openRuntime({ ...config, jwtSecret: await sessionSecret(config) });
  const { deps } = runtime;

  if (await deps.credentials.isEmpty()) {
    if (config.demo) {
      const password = config.demoPassword ?? generatePassword();
      const started = Date.now();
      console.log("First start in demo mode: adding demo staff, gateways and orders…");
      const { orders } = await seedDemo(deps, { password });
      console.log(`Demo data ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${orders} orders.`);
      console.log("Demo staff (one per role):");
      for (const member of DEMO_STAFF) console.log(`  ${member.role.padEnd(11)} ${member.email}`);
      console.log(config.demoPassword ? "  password: the one in DEMO_PASSWORD" : `  password: ${password}   (set DEMO_PASSWORD to choose it)`);
    } else if (config.firstAdmin) {
      await createFirstAdmin(deps, config.firstAdmin);
      console.log(`Created the first admin, ${config.firstAdmin.email}.`);
    } else {
      console.warn("No staff account exists: set FIRST_ADMIN_EMAIL and FIRST_ADMIN_PASSWORD to create the first admin.");
    }
  }

  // Serve at once: a projector that must wait for a killed process's lease to lapse makes only
  // the read models late (GET /api/ready says when they are live), never sign-in or commands.
  const projector = await runtime.startProjectors();
  projector.ready.then(
    () => console.log("Read models are live."),
    (error: unknown) => console.error("A read model failed to start:", error),
  );
  await runtime.startReactors();

  const server = createApp(deps).listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    const where = deps.eventStoreKind === "pglite" ? ` in ${config.dataDir}` : "";
    console.log(`Listening on http://${config.host}:${port} (event store: ${deps.eventStoreKind}${where})`);
  });

  const stop = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    server.close();
    await runtime.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
};

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
