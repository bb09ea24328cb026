import { requestReactorRetry, type Reactor, type RecordedEvent, type SqlDriver } from "@etd/event-store";
import { OPERATIONS_STREAM, ProjectionRebuildRequested, ReactorRetryRequested } from "@etd/events";
import * as Schema from "effect/Schema";
import type { Projection } from "./projection.ts";
import { migrateRegistry, startBuild, tableOf } from "./registry.ts";

/*
 * Carries out what Admins ask from the operator's screen (issue 28, ADR 0039): a reactor that
 * follows the log for the operations stream's requests, run beside the projector. Its checkpoint
 * moves after the effect, so a crash between the request's append and its effect is finished on
 * restart; each effect may repeat harmlessly:
 * - a rebuild starts a new build of the read model beside the live one, unless a build of it was
 *   started after the request was recorded (then this request already has its build); the
 *   projector's scan leases it, catches it up and promotes it. Projections have no side effects,
 *   so building one again repeats none.
 * - a retry marks the reactor's failure as asked to be retried now (reactor.ts acts on it).
 */

const OPERATOR_REQUESTS = "operator-requests";

const isRebuild = Schema.is(ProjectionRebuildRequested.data);
const isRetry = Schema.is(ReactorRetryRequested.data);

/** Whether a build of the projection was started at or after `since`, the request's time. */
const builtSince = async (driver: SqlDriver, name: string, since: Date): Promise<boolean> =>
  (await driver.query("select from projection_builds where name = $1 and created_at >= $2 limit 1", [name, since])).length > 0;

export const operatorRequests = (driver: SqlDriver, projections: readonly Projection[]): Reactor => ({
  name: OPERATOR_REQUESTS,
  react: async (event: RecordedEvent) => {
    if (event.streamId !== OPERATIONS_STREAM) return;
    if (event.type === ProjectionRebuildRequested.type && isRebuild(event.data)) {
      // A read model this code does not run (renamed, or another release's) is left to the process that runs it.
      const projection = projections.find((p) => p.name === event.data.projection);
      if (!projection) return;
      await migrateRegistry(driver);
      if (await builtSince(driver, projection.name, event.recordedAt)) return;
      await startBuild(driver, projection.name, projection.version, (query, build) => projection.migrate(query, (base) => tableOf(build, base)));
      return;
    }
    if (event.type === ReactorRetryRequested.type && isRetry(event.data)) await requestReactorRetry(driver, event.data.reactor);
  },
});
