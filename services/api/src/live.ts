import type express from "express";
import { PROJECTION_CHANNEL, listBuilds } from "@etd/projections";
import type { ApiDeps } from "./api-deps.ts";
import { authenticate, UNAUTHORIZED } from "./http/endpoint.ts";
import { fail } from "./http/reply.ts";

/*
 * Live updates (DESIGN §5, CARD-3): an authenticated Server-Sent Events stream telling each
 * signed-in browser which read model moved and to which log position, so it refetches exactly
 * the queries that read it. One LISTEN per process feeds every client. EventSource cannot send
 * headers, so the token may come as `?token=`; the session is checked again at every heartbeat,
 * so a password change or deletion closes the stream.
 */

const HEARTBEAT_MS = 20_000;

export const mountLive = (app: express.Express, deps: ApiDeps): void => {
  const clients = new Set<express.Response>();
  // Listening starts with the first client; the driver ends it when it closes.
  let listening: Promise<unknown> | undefined;
  const listen = () =>
    (listening ??= deps.readDb.onNotification(PROJECTION_CHANNEL, (payload) => {
      for (const res of clients) res.write(`event: change\ndata: ${payload}\n\n`);
    }).catch((error: unknown) => {
      listening = undefined;
      throw error;
    }));

  app.get("/api/live", (req, res, next) => {
    void (async () => {
      const token = typeof req.query.token === "string" ? req.query.token : undefined;
      const header = req.get("authorization") ?? token;
      const guard = { tokens: deps.tokens, credentials: deps.credentials, serviceToken: undefined };
      if (!(await authenticate(guard, header))) {
        res.status(401).json(fail(401, UNAUTHORIZED).body);
        return;
      }
      await listen();
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      // Where every read model stands now, so a client can tell whether it has missed anything.
      const builds = await listBuilds(deps.readDb.query);
      const positions = Object.fromEntries(builds.filter((b) => b.status === "live").map((b) => [b.name, `${b.checkpoint.tx}.${b.checkpoint.seq}`]));
      res.write(`retry: 2000\nevent: hello\ndata: ${JSON.stringify({ positions })}\n\n`);
      clients.add(res);
      const heartbeat = setInterval(() => {
        void authenticate(guard, header).then((user) => {
          if (user) res.write(": ping\n\n");
          else res.end();
        });
      }, HEARTBEAT_MS);
      req.on("close", () => {
        clearInterval(heartbeat);
        clients.delete(res);
      });
    })().catch(next);
  });
};
