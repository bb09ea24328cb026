import { parentPort, workerData } from "node:worker_threads";
import { planLog, type PlannedWork, type PlanOptions } from "./plan-log.ts";

/*
 * Plans the workload's log on a thread of its own, so that deciding and encoding events (CPU)
 * overlaps with appending them (waiting on PostgreSQL). The main thread asks for a number of
 * pieces of work and gets them in one message.
 */

export interface PlanRequest {
  readonly want: number;
}

export type PlanReply = { readonly works: readonly PlannedWork[]; readonly done: boolean } | { readonly error: string };

if (!parentPort) throw new Error("plan-worker.ts runs as a worker thread");
const port = parentPort;
const plan = planLog(workerData as PlanOptions);

port.on("message", ({ want }: PlanRequest) => {
  try {
    const works: PlannedWork[] = [];
    let done = false;
    while (works.length < want) {
      const next = plan.next();
      if (next.done) {
        done = true;
        break;
      }
      works.push(next.value);
    }
    port.postMessage({ works, done } satisfies PlanReply);
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies PlanReply);
  }
});
