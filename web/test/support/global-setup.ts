import { buildWebIfStale } from "../../scripts/build-if-stale.ts";
import { startRunShared } from "./run-shared.ts";

/**
 * Browser tests run against the built app: build it first when the sources are newer. Then the
 * run's shared Chromium and schemas (run-shared.ts), made when a browser test file first asks.
 */
export default async function setup(): Promise<() => Promise<void>> {
  buildWebIfStale();
  const shared = await startRunShared();
  return () => shared.stop();
}
