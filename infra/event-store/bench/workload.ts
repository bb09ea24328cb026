/**
 * P1's workload, the same for every contender: W writers, each a loop of command handlers that
 * append one event to an order stream of their own with the exact expected version (the version
 * the previous append returned). An order stream takes EVENTS_PER_STREAM events, then the writer
 * moves on to a new order, so both "create the stream" (expected 0) and "extend it" are measured.
 */
import { randomUUID } from "node:crypto";
import type { NewEvent } from "../src/port.ts";

/** Appends one event at exactly `expectedVersion`; resolves to the stream's new version. */
export type AppendOne = (streamId: string, expectedVersion: bigint, event: NewEvent) => Promise<bigint>;

export interface LoadOptions {
  readonly writers: number;
  readonly warmupMs: number;
  readonly measureMs: number;
  readonly eventsPerStream: number;
}

export interface LoadResult {
  /** Appends that completed inside the measured window. */
  readonly appends: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  /** Appends completed in total (warm-up, window and the drain after it): rows expected. */
  readonly total: number;
}

const STAFF = [
  { id: "7f3c2a", name: "Maria Santos", role: "Manager" },
  { id: "a19e44", name: "Jonas Petrauskas", role: "Agent" },
  { id: "c2d7f0", name: "Aisha Rahman", role: "Agent" },
];

/**
 * An OrderAssigned as the API would append it: ~500 bytes of data and metadata JSON together.
 * A fresh event id and timestamps per call, so every contender does the same client work.
 */
export const orderAssigned = (orderId: string, n: number): NewEvent => {
  const staff = STAFF[n % STAFF.length]!;
  const now = new Date().toISOString();
  return {
    eventId: randomUUID(),
    type: "OrderAssigned",
    schemaVersion: 1,
    data: {
      orderId,
      from: n % 2 === 0 ? "Priority" : "New",
      assignee: { id: staff.id, name: staff.name },
      assignedAt: now,
    },
    metadata: {
      actor: { kind: "staff", id: staff.id, name: staff.name, role: staff.role },
      correlationId: `req-${randomUUID()}`,
      causationId: randomUUID(),
      requestIp: "203.0.113.24",
      userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
      occurredAt: now,
    },
  };
};

/** Bytes of data plus metadata as JSON, for the report. */
export const payloadBytes = (): number => {
  const event = orderAssigned("100234", 0);
  return Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata));
};

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Runs the writers for warm-up plus the measured window, then lets each finish the append it has
 * in flight. Counts and times the appends that completed inside the window.
 * Any failed append (a conflict included: every writer owns its streams) aborts the run.
 */
export const runLoad = async (append: AppendOne, options: LoadOptions): Promise<LoadResult> => {
  const latencies: number[] = [];
  let total = 0;
  let stop = false;
  let nextOrder = 100_000;
  const start = performance.now();
  const windowStart = start + options.warmupMs;
  const windowEnd = windowStart + options.measureMs;

  const writer = async (): Promise<void> => {
    let streamId = `order-${nextOrder++}`;
    let version = 0n;
    while (!stop) {
      const event = orderAssigned(streamId.slice("order-".length), Number(version));
      const began = performance.now();
      const next = await append(streamId, version, event);
      const ended = performance.now();
      if (next !== version + 1n) throw new Error(`${streamId}: expected version ${version + 1n} after the append, got ${next}`);
      total++;
      if (ended >= windowStart && ended <= windowEnd) latencies.push(ended - began);
      version = next;
      if (version >= BigInt(options.eventsPerStream)) {
        streamId = `order-${nextOrder++}`;
        version = 0n;
      }
    }
  };

  const timer = setTimeout(() => (stop = true), options.warmupMs + options.measureMs);
  try {
    const writers = Array.from({ length: options.writers }, () =>
      writer().catch((error: unknown) => {
        stop = true;
        throw error;
      }),
    );
    const settled = await Promise.allSettled(writers);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) throw failed.reason;
  } finally {
    stop = true;
    clearTimeout(timer);
  }

  const sorted = Float64Array.from(latencies).sort();
  const seconds = options.measureMs / 1000;
  return {
    appends: sorted.length,
    seconds,
    perSecond: sorted.length / seconds,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    total,
  };
};
