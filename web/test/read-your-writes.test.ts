import "./support/memory-storage.ts";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QUEUES } from "@etd/contract/endpoints";
import { endpointQuery } from "../src/lib/endpoint-query.ts";
import { teamMembersQuery } from "../src/lib/team-members.ts";
import { queuePageQuery } from "../src/features/queues/utils/queue-queries.ts";
import { folderCountsQuery } from "../src/features/shell/hooks/folder-counts.ts";
import { comparePositions, createReadYourWrites, readYourWritesOf, refetchAfterCommand, type Envelope } from "../src/lib/api-client.ts";

/*
 * Read-your-writes, precisely (issue 10 item 6): a query waits (sends X-Read-After) only for
 * positions of commands its own tab ran, and only for the read model it reads, and stops waiting
 * once the live feed says that read model has applied the position.
 */

describe("the read-your-writes state of one tab", () => {
  it("holds a command's position for the read models it changes, and for no other", () => {
    const state = createReadYourWrites();
    state.wrote("120.3", ["queue", "order_details"]);
    expect(state.readAfter(["queue"])).toBe("120.3");
    expect(state.readAfter(["order_details"])).toBe("120.3");
    expect(state.readAfter(["staff"])).toBeUndefined();
    expect(state.readAfter(["gateways", "reports"])).toBeUndefined();
  });

  it("keeps the latest position per read model, comparing positions as numbers", () => {
    const state = createReadYourWrites();
    state.wrote("99.7", ["queue"]);
    state.wrote("100.2", ["queue"]);
    state.wrote("100.10", ["staff"]);
    state.wrote("98.1", ["queue"]);
    expect(state.readAfter(["queue"])).toBe("100.2");
    expect(state.readAfter(["queue", "staff"])).toBe("100.10");
    expect(comparePositions("9.1", "10.0")).toBe(-1);
  });

  it("stops waiting for a read model once the live feed says it applied the position, not before", () => {
    const state = createReadYourWrites();
    state.wrote("50.4", ["queue", "reports"]);
    state.applied("queue", "50.3");
    expect(state.readAfter(["queue"])).toBe("50.4");
    state.applied("queue", "50.4");
    expect(state.readAfter(["queue"])).toBeUndefined();
    expect(state.readAfter(["reports"])).toBe("50.4");
  });

  it("ignores answers that carry no position, and forgets everything on sign-out", () => {
    const state = createReadYourWrites();
    state.wrote(undefined, ["queue"]);
    state.wrote("not a position", ["queue"]);
    expect(state.readAfter(["queue"])).toBeUndefined();
    state.wrote("7.1", ["queue"]);
    state.forget();
    expect(state.readAfter(["queue"])).toBeUndefined();
  });
});

describe("queries through the api client, one QueryClient per tab", () => {
  const sent: { path: string; readAfter: string | null }[] = [];

  beforeEach(() => {
    sent.length = 0;
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      sent.push({ path: url, readAfter: new Headers(init.headers).get("x-read-after") });
      return new Response(JSON.stringify({ status: 1, message: "ok", data: [] }), { status: 200 });
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const assignAnswer: Envelope = { status: 1, message: "Order assigned.", data: { changed: ["300001"], position: "812.2" } };
  const lastSent = () => sent.at(-1)!;

  it("a tab's command makes that tab's queue queries wait for it; another tab's queries and other read models do not", async () => {
    const tab = new QueryClient();
    const otherTab = new QueryClient();
    await refetchAfterCommand(tab, assignAnswer, { changes: ["queue", "order_details", "reports"] });

    await tab.fetchQuery(queuePageQuery("newOrder", { page: 1, size: 10, search: "" }, "Tessa"));
    expect(lastSent()).toEqual({ path: expect.stringContaining("/api/admin/get-orders-list/newOrder"), readAfter: "812.2" });
    await tab.fetchQuery(queuePageQuery("newOrder", { page: 1, size: 10, search: "smith" }, "Tessa"));
    expect(lastSent()).toEqual({ path: "/api/admin/search-order", readAfter: "812.2" });
    // The team list shows each member's open orders, from the queue read model (issue 27): it waits too.
    await tab.fetchQuery(teamMembersQuery());
    expect(lastSent()).toEqual({ path: "/api/admin/get-team-member-list", readAfter: "812.2" });
    // The gateways read model, which the assignment does not change, is read at once.
    await tab.fetchQuery(endpointQuery(QUEUES.getPaymentGateways, {}));
    expect(lastSent()).toEqual({ path: "/api/admin/payment-gateways", readAfter: null });

    await otherTab.fetchQuery(folderCountsQuery("Tessa"));
    expect(lastSent()).toEqual({ path: expect.stringContaining("/api/admin/get-all-folder-count"), readAfter: null });
  });

  it("once the live feed reports the queue read model at the position, the tab's queue queries stop waiting", async () => {
    const tab = new QueryClient();
    await refetchAfterCommand(tab, assignAnswer, { changes: ["queue"] });
    readYourWritesOf(tab).applied("queue", "812.2");
    await tab.fetchQuery(folderCountsQuery("Tessa"));
    expect(lastSent().readAfter).toBeNull();
  });
});
