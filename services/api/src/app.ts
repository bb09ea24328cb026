import type { EventStore } from "@etd/event-store";
import { formatPosition } from "@etd/event-store";
import express from "express";

export interface AppDeps {
  readonly eventStore: EventStore;
  /** Which adapter the event store runs on, for operators. */
  readonly eventStoreKind: "postgres" | "pglite" | "kurrentdb";
}

/** The HTTP edge. Every answer uses the specs' envelope `{status, message, data}`. */
export const createApp = ({ eventStore, eventStoreKind }: AppDeps): express.Express => {
  const app = express();
  app.disable("x-powered-by");

  app.get("/api/health", async (_req, res) => {
    try {
      const [head, horizonAgeSeconds] = await Promise.all([eventStore.headPosition(), eventStore.horizonAgeSeconds()]);
      res.json({
        status: 1,
        message: "OK",
        data: { eventStore: eventStoreKind, head: formatPosition(head), horizonAgeSeconds },
      });
    } catch (error) {
      console.error("health check failed", error);
      res.status(503).json({ status: 0, message: "The event store is not reachable.", data: null });
    }
  });

  return app;
};
