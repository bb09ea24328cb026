import { describe, it } from "vitest";
import { operationsDecider } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { GRACE, MARIA } from "../support/metadata.ts";

/* Issue 28: the operator's actions are requests an Admin appends to the operations stream. */

const spec = specFor(operationsDecider);

describe("issue 28 the operator's actions", () => {
  it("an Admin's Rebuild asks for the read model's running version to be built again", () => {
    spec
      .given([])
      .when({ type: "RequestRebuild", projection: "queue", version: 7, building: false, actor: GRACE })
      .then([{ type: "ProjectionRebuildRequested", data: { projection: "queue", version: 7 } }]);
  });

  it("a Rebuild while one is under way is refused: the build catching up is the one asked for", () => {
    spec
      .given([])
      .when({ type: "RequestRebuild", projection: "queue", version: 7, building: true, actor: GRACE })
      .thenRefuses("conflict", "The queue read model is already being rebuilt.");
  });

  it("an Admin's Retry asks the reactor to try again now", () => {
    spec.given([]).when({ type: "RequestReactorRetry", reactor: "mail", waiting: true, actor: GRACE }).then([{ type: "ReactorRetryRequested", data: { reactor: "mail" } }]);
  });

  it("a Retry of a reactor that is not waiting to retry is refused: it would change nothing but the log", () => {
    spec.given([]).when({ type: "RequestReactorRetry", reactor: "mail", waiting: false, actor: GRACE }).thenRefuses("conflict", "The mail reactor is not waiting to retry.");
  });

  it("only an Admin takes them", () => {
    spec.given([]).when({ type: "RequestRebuild", projection: "queue", version: 7, building: false, actor: MARIA }).thenRefuses("forbidden", "Only an Admin can run the operator's actions.");
    spec.given([]).when({ type: "RequestReactorRetry", reactor: "mail", waiting: true, actor: MARIA }).thenRefuses("forbidden", "Only an Admin can run the operator's actions.");
  });
});
