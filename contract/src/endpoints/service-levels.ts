import type { ServiceClockAnswer, ServiceLevelPolicies } from "../service-levels.ts";
import { answer, endpoints } from "./declare.ts";
import type { CommandAnswer } from "./orders.ts";

/*
 * Service levels (issue 27, ADR 0036). The policy and an order's clock are folded from the log
 * itself (the service-levels stream, the order's stream), which is always current. The clock
 * still names order_details as what it reads: it is shown beside the order page, so it waits for
 * what the page waits for and is read again whenever the order's read model moves (live).
 */
export const SERVICE_LEVELS = endpoints({
  getServiceLevels: {
    method: "get",
    path: "/admin/service-levels",
    guard: "service-levels.read",
    summary: "The service-level policy in force (its version, the minutes allowed for Standard, Priority and future orders, who set it and when) and every version set before it",
    reads: [],
    data: answer<ServiceLevelPolicies>(),
  },
  setServiceLevels: {
    method: "put",
    path: "/admin/service-levels",
    guard: "service-levels.set",
    summary: "Set the service-level policy: a new version for orders paid from now on; the same values again change nothing (issue 27)",
    body: "SetServiceLevelsRequest",
    // The policy's own stream only: no read model folds it yet, and orders paid before keep theirs.
    changes: [],
    data: answer<CommandAnswer>(),
  },
  getServiceClock: {
    method: "get",
    path: "/admin/service-clock/:orderId",
    guard: "orders.read",
    summary:
      "An order's service-level clock, now or as of a moment (?asOf=ISO time): its segments (running, paused, stopped, met) with the event and member that started each, time used against time allowed, the policy version and when it is due",
    params: "OrderIdParam",
    query: "ServiceClockQuery",
    strictQuery: true,
    reads: ["order_details"],
    data: answer<ServiceClockAnswer>(),
    answers: { 404: "The order does not exist" },
  },
});
