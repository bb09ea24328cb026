import { openPostgresDriver, type SqlDriver } from "@etd/event-store";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCredentials } from "../src/auth/credentials.ts";

/*
 * The credentials table is migrated by every API at start (DESIGN §9: several at once). The
 * fresh-clone run of issue 16 failed when one API's start, with an ALTER TABLE for the two-factor
 * columns, queued for the table's exclusive lock behind another API that was seeding its first
 * admin (read, then insert): PostgreSQL found a deadlock and that API ended (AUTH-3, ADR 0024).
 */

const available = await postgresAvailable();

const OLD_SHAPE = `
create table staff_credentials (
  staff_id text primary key,
  email text not null,
  name text not null,
  role text not null,
  password_hash text not null,
  session_generation integer not null default 1,
  deleted boolean not null default false,
  updated_at timestamptz not null default now()
)`;

describe.skipIf(!available)("credentials migration beside a running API", () => {
  let database: TestDatabase;
  let driver: SqlDriver;

  beforeEach(async () => {
    database = await createTestDatabase();
    driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 4 });
  });

  afterEach(async () => {
    await driver.close();
    await database.drop();
  });

  const waitingLocks = async () =>
    Number((await driver.query("select count(*) as n from pg_locks where not granted"))[0]!.n);

  it("a start while another API reads and then writes the table neither waits nor deadlocks", async () => {
    await createCredentials(driver);
    let migrated = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const seeding = driver.transaction(async (query) => {
      await query("select * from staff_credentials where not deleted limit 1");
      await released;
      await query(
        "insert into staff_credentials (staff_id, email, name, role, password_hash) values ('s-1', 'a@b.test', 'A', 'Admin', 'x')",
      );
    });
    const second = createCredentials(driver).then(() => (migrated = true));
    // Either the second start finishes, or it queues for a lock: poll which comes first.
    let waited = 0;
    while (!migrated && waited === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      waited = await waitingLocks();
    }
    const seen = { migrated, waitingLocks: waited };
    release();
    // Before the fix, the seeding insert now queued behind the waiting ALTER: 40P01, deadlock.
    await Promise.all([seeding, second]);
    expect(seen).toEqual({ migrated: true, waitingLocks: 0 });
    expect(await driver.query("select staff_id from staff_credentials")).toEqual([{ staff_id: "s-1" }]);
  });

  it("a table made before two-factor sign-in gets its columns, once", async () => {
    await driver.query(OLD_SHAPE);
    await driver.query(
      "insert into staff_credentials (staff_id, email, name, role, password_hash) values ('s-1', 'a@b.test', 'A', 'Admin', 'x')",
    );
    await createCredentials(driver);
    await createCredentials(driver);
    const columns = await driver.query(
      "select column_name from information_schema.columns where table_name = 'staff_credentials' and column_name in ('totp_secret', 'totp_pending', 'totp_last_step', 'recovery_codes') order by column_name",
    );
    expect(columns.map((row) => row.column_name)).toEqual(["recovery_codes", "totp_last_step", "totp_pending", "totp_secret"]);
    const credentials = await createCredentials(driver);
    expect(await credentials.findById("s-1")).toMatchObject({ email: "a@b.test", twoFactor: false });
  });
});
