import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * Two test files run at once, one per PostgreSQL server, each worker taking the next file in line
 * (ADR 0029). Vitest lines files up by their last durations, kept under node_modules; a fresh
 * clone (CI) has none, and then it lines them up by size, which puts a short file of long work (a
 * crash test, a 200,000-event log) near the end: it runs alone while the other worker has nothing
 * left to do. The files that took longest on CI go first, longest first (seconds, in a fresh-clone
 * run on a quiet machine); the rest follow as vitest lines them up. A file missing from the list
 * only starts later.
 */
const LONGEST = [
  "/projections/test/rebuild/rebuild-crash.int.test.ts", // 129
  "/services/server/test/mail-crash.int.test.ts", // 55
  "/services/server/test/relay.int.test.ts", // 51
  "/projections/test/rebuild/rebuild-run-processes.int.test.ts", // 44
  "/services/server/test/openapi-schemathesis.int.test.ts", // 35
  "/infra/event-store/test/chain-scale.int.test.ts", // 34
  "/services/server/test/adversarial-text.int.test.ts", // 31
  "/services/server/test/erase-crash.int.test.ts", // 30
  "/services/server/test/export.int.test.ts", // 28
  "/services/server/test/multi-process.int.test.ts", // 25
  "/services/server/test/assign-race.int.test.ts", // 23
  "/infra/event-store/test/pglite-personal-data.int.test.ts", // 16
  "/services/server/test/refused-commands.int.test.ts", // 16
  "/services/server/test/operations.int.test.ts", // 16
  "/services/server/test/fuzz.int.test.ts", // 15
];

const rank = (spec: TestSpecification): number => LONGEST.findIndex((suffix) => spec.moduleId.endsWith(suffix));

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const lined = await super.sort(files);
    const known = lined.filter((spec) => rank(spec) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...known, ...lined.filter((spec) => rank(spec) < 0)];
  }
}
