import { describe, it } from "vitest";
import { serviceLevelDecider, type SetServiceLevelPolicy } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { GRACE, MARIA, staffMetadata } from "../support/metadata.ts";
import { storedEvent } from "../support/order-fixtures.ts";

/* Issue 27: the service-level policy, set by an Admin, one version per change. */

const spec = specFor(serviceLevelDecider);

const set = (standard: number, priority: number, future: number, actor: SetServiceLevelPolicy["actor"] = GRACE): SetServiceLevelPolicy => ({
  type: "SetServiceLevelPolicy",
  allowedMinutes: { standard, priority, future },
  actor,
});
const versionOne = storedEvent("ServiceLevelPolicySet", { version: 1, allowedMinutes: { standard: 1440, priority: 240, future: 1440 } }, staffMetadata(GRACE));

describe("issue 27 setting the service levels", () => {
  it("the first policy is version 1; each change after it is the next version", () => {
    spec.given([]).when(set(1440, 240, 1440)).then([{ type: "ServiceLevelPolicySet", data: { version: 1, allowedMinutes: { standard: 1440, priority: 240, future: 1440 } } }]);
    spec.given([versionOne]).when(set(720, 60, 1440)).then([{ type: "ServiceLevelPolicySet", data: { version: 2, allowedMinutes: { standard: 720, priority: 60, future: 1440 } } }]);
  });

  it("saving the policy unchanged changes nothing", () => {
    spec.given([versionOne]).when(set(1440, 240, 1440)).then([]);
  });

  it("only an Admin sets it", () => {
    spec.given([versionOne]).when(set(60, 30, 60, MARIA)).thenRefuses("forbidden", "Only an Admin can set the service levels.");
  });

  it("each allowance is a whole number of minutes from 1 to a year, named in the refusal", () => {
    spec.given([]).when(set(0, 240, 1440)).thenRefuses("invalid", "Standard: the time allowed is a whole number of minutes from 1 to 525600 (a year).");
    spec.given([]).when(set(1440, 1.5, 1440)).thenRefuses("invalid", "Priority: the time allowed is a whole number of minutes from 1 to 525600 (a year).");
    spec.given([]).when(set(1440, 240, 525_601)).thenRefuses("invalid", "Future orders: the time allowed is a whole number of minutes from 1 to 525600 (a year).");
  });
});
