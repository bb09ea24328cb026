import { buildWebIfStale } from "../../scripts/build-if-stale.ts";

/** Browser tests run against the built app: build it first when the sources are newer. */
export default function setup(): void {
  buildWebIfStale();
}
