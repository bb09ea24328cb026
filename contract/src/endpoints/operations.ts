import type { OperationsStatus } from "../operations.ts";
import { answer, endpoints } from "./declare.ts";
import type { CommandAnswer } from "./orders.ts";

/*
 * The operator's screen (issue 28, ADR 0039), Admin only. The figures are read from the engine's
 * registry and the log, which are always current: they wait for no read model. Each action is a
 * request appended to the operations stream; the process that runs the read models or reactors
 * carries it out, so no read model changes at its answer.
 */
export const OPERATIONS = endpoints({
  getOperations: {
    method: "get",
    path: "/admin/operations",
    guard: "operations.manage",
    summary:
      "The running system: each read model's live version, a rebuild's progress, events and seconds behind; each reactor's checkpoint, lag, lease holder and last error; the log's head, the read horizon's age and how far the chain is sealed",
    reads: [],
    data: answer<OperationsStatus>(),
  },
  rebuildReadModel: {
    method: "post",
    path: "/admin/operations/read-models/:name/rebuild",
    guard: "operations.manage",
    summary: "Build the read model again from the start of the log beside the live build, which keeps answering; the new build goes live when it reaches the head",
    params: "ReadModelNameParam",
    changes: [],
    data: answer<CommandAnswer>(),
    answers: { 404: "No read model has this name", 409: "The read model is already being rebuilt" },
  },
  retryReactor: {
    method: "post",
    path: "/admin/operations/reactors/:name/retry",
    guard: "operations.manage",
    summary: "Make a failing reactor try again now instead of at the end of its back-off",
    params: "ReactorNameParam",
    changes: [],
    data: answer<CommandAnswer>(),
    answers: { 404: "No reactor has this name", 409: "The reactor is not waiting to retry: nothing changed" },
  },
});
