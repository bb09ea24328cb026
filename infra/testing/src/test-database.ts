import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * Throwaway PostgreSQL databases for tests: each suite gets its own, dropped afterwards, so runs
 * never see each other's rows. The server comes from TEST_DATABASE_URL (any database on it; the
 * role needs CREATEDB). Where no server answers, suites skip with a visible notice, except under
 * CI, where a missing PostgreSQL is a failure.
 *
 * TEST_DATABASE_URL may name several servers, separated by commas: then test files run in as many
 * workers at once, each worker on its own server (VITEST_POOL_ID, 1 to the number of workers). A
 * server's read horizon spans all its databases, so files sharing one would hold each other's
 * readers back; on servers of their own they do not meet (ADR 0029).
 */
export const testServers = (): readonly string[] => {
  const listed = (process.env.TEST_DATABASE_URL ?? "").split(",").map((url) => url.trim()).filter((url) => url !== "");
  return listed.length > 0 ? listed : ["postgres://etd:etd@127.0.0.1:5432/postgres"];
};

const servers = testServers();
/** This worker's server. */
export const SERVER_URL = servers[(Math.max(1, Number(process.env.VITEST_POOL_ID ?? 1)) - 1) % servers.length]!;

const withDatabase = (url: string, database: string): string => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

let reachable: Promise<boolean> | undefined;

/** True when the test server answers. Under CI an unreachable server throws instead. */
export const postgresAvailable = (): Promise<boolean> => {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (error) {
      if (process.env.CI) throw new Error(`PostgreSQL is required under CI and ${SERVER_URL} did not answer`, { cause: error });
      console.warn(`\n  NOTICE: PostgreSQL at ${SERVER_URL} is not reachable: its tests are SKIPPED (${String(error)})\n`);
      return false;
    }
  })();
  return reachable;
};

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

const dropWhenFree = async (client: pg.Client, name: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`drop database if exists ${name}`);
      return;
    } catch (error) {
      // 55006: the database is still in use.
      if ((error as { code?: string }).code !== "55006" || attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
};

/**
 * `template`: a database on this worker's server to copy instead of an empty one (a schema made
 * once for many test files). PostgreSQL copies it only while nobody is connected to it.
 */
export const createTestDatabase = async ({ template }: { template?: string } = {}): Promise<TestDatabase> => {
  const name = `etd_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(SERVER_URL, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: SERVER_URL });
      await client.connect();
      try {
        try {
          await client.query(`drop database if exists ${name} with (force)`);
        } catch (error) {
          // FORCE must terminate every session, and a role that is not a superuser may not
          // terminate an autovacuum worker (42501). Our own sessions are closed by now, so a
          // plain drop succeeds once the worker has finished.
          if ((error as { code?: string }).code !== "42501") throw error;
          await dropWhenFree(client, name);
        }
      } finally {
        await client.end();
      }
    },
  };
};
