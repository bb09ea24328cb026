import type { LiveChange } from "@etd/contract";
import { parseLiveChange } from "@etd/contract";
import { openStream } from "@etd/server/test/sse-stream";
import { APP_REFETCH_TIMING, refetchScheduler } from "../src/lib/live-refetch.ts";

/*
 * Part of the crowd of `bench:fanout` (P17), in a process of its own so that the streams' parsing
 * and refetching are not timed as the server's: `count` live clients, each the New Order page's two
 * queries behind the app's own refetch rule and interval. Driven over IPC by fanout.bench.ts:
 * `{ reset: true }` zeroes the count, `{ report: true }` answers `{ requests }`, `{ stop: true }`
 * closes every stream and ends. Answers `{ ready: true }` once every stream is open.
 * Arguments: base URL, the sessions' tokens (JSON), the viewer's staff id, how many clients.
 */

const [base, tokensJson, viewerId, countText] = process.argv.slice(2);
const tokens = JSON.parse(tokensJson!) as string[];
const count = Number(countText);

const QUERIES: Record<string, readonly unknown[]> = {
  "/admin/get-orders-list/newOrder?page=1&limit=25&delay=1": ["queue", "list", "newOrder", { page: 1, size: 25 }],
  "/admin/get-all-folder-count": ["queue", "GET", "/admin/get-all-folder-count", { query: {} }],
};

let requests = 0;
const get = async (path: string, token: string) => {
  requests += 1;
  const response = await fetch(`${base}/api${path}`, { headers: { authorization: token } });
  await response.arrayBuffer();
};

const clients = await Promise.all(
  Array.from({ length: count }, async (_, i) => {
    const token = tokens[i % tokens.length]!;
    const scheduler = refetchScheduler(
      (isStale) => {
        for (const [path, key] of Object.entries(QUERIES)) if (isStale(key)) void get(path, token);
      },
      viewerId!,
      APP_REFETCH_TIMING,
    );
    const stream = await openStream(
      `${base}/api/live`,
      ({ event, data }) => {
        const change: LiveChange | undefined = event === "change" ? parseLiveChange(data) : undefined;
        if (change) scheduler.add(change);
      },
      { authorization: token },
    );
    if (stream.status !== 200) throw new Error(`live client ${i}: the stream answered ${stream.status}`);
    return { stream, scheduler };
  }),
);

// The bench gone (it failed, or was stopped): so is its crowd, with no stream left open.
process.on("disconnect", () => process.exit(0));
process.on("message", (message: { reset?: true; report?: true; stop?: true }) => {
  if (message.reset) requests = 0;
  if (message.report && process.connected) process.send!({ requests });
  if (message.stop) {
    for (const { stream, scheduler } of clients) {
      scheduler.stop();
      stream.close();
    }
    process.disconnect();
  }
});
process.send!({ ready: true });
