import { createHash } from "node:crypto";
import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";

/*
 * Traces that follow one click (issue 28, ADR 0041): request → decider → append → projector →
 * live message, across processes, by the events' correlation id. The trace id is derived from the
 * correlation id (SHA-256, its first 16 bytes), so every process that holds an event knows the
 * trace of the click behind it without anything carried in the event: the spans of one click hang
 * under one parent that no process records (the click itself), whose span id is derived the same
 * way. Within a process the active span is carried by AsyncLocalStorage.
 *
 * Off unless started (startTracing, or OTEL_EXPORTER_OTLP_ENDPOINT for startTracingFromEnv): then
 * `inSpan` only calls its function, hashes nothing and allocates no span.
 */

let tracer: Tracer | undefined;

/** Whether spans are recorded in this process. */
export const tracing = (): boolean => tracer !== undefined;

export interface Tracing {
  /** Hands every ended span to the exporter. */
  flush(): Promise<void>;
  /** Flushes, then stops recording. */
  stop(): Promise<void>;
}

/**
 * Records spans from now on and hands them to `exporter`: batched (an OTLP endpoint), or one by one
 * as they end (`immediate`: a test's in-memory exporter, read as soon as a span ends).
 */
export const startTracing = (exporter: SpanExporter, options: { readonly immediate?: boolean; readonly service?: string } = {}): Tracing => {
  const processor = options.immediate ? new SimpleSpanProcessor({ exporter }) : new BatchSpanProcessor({ exporter });
  const provider = new TracerProvider({ spanProcessors: [processor] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  tracer = provider.getTracer(options.service ?? "etd");
  return {
    flush: () => provider.forceFlush(),
    stop: async () => {
      tracer = undefined;
      // A collector that cannot be reached loses the last spans; it never fails the process's shutdown.
      await provider.shutdown().catch((error: unknown) => console.warn(`tracing: the last spans were not exported: ${String(error)}`));
      context.disable();
      contextManager.disable();
    },
  };
};

/**
 * OTLP over HTTP when the standard variables name an endpoint (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * as it is, or OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces); else nothing. Failed exports are
 * dropped by the SDK: a collector that is down costs spans, never a request.
 */
export const startTracingFromEnv = (env: NodeJS.ProcessEnv = process.env): Tracing | undefined => {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (base && `${base.endsWith("/") ? base.slice(0, -1) : base}/v1/traces`);
  return url ? startTracing(new OTLPTraceExporter({ url }), { service: env.OTEL_SERVICE_NAME || "etd" }) : undefined;
};

/** Spans kept in memory by the SDK's own exporter as they end: what a test or the tracing bench reads. */
export const traceInMemory = (): Tracing & { spans(): ReadableSpan[]; reset(): void } => {
  const exporter = new InMemorySpanExporter();
  return { ...startTracing(exporter, { immediate: true }), spans: () => exporter.getFinishedSpans(), reset: () => exporter.reset() };
};

export type { ReadableSpan };

const CLICK = "etd click ";

/** The click's own span context: its trace id and span id from the correlation id, recorded nowhere. */
const clickSpanContext = (correlationId: string): SpanContext => {
  const hash = createHash("sha256").update(CLICK + correlationId).digest("hex");
  return { traceId: hash.slice(0, 32), spanId: hash.slice(32, 48), traceFlags: TraceFlags.SAMPLED, isRemote: true };
};

/** The trace id of the click behind every event that carries `correlationId`. */
export const traceIdOf = (correlationId: string): string => clickSpanContext(correlationId).traceId;

/** W3C `traceparent` of a span, to hand its context to another listener (the live stream). */
export const traceparentOf = (span: SpanHandle): string | undefined => {
  if (!span.span) return undefined;
  const { traceId, spanId } = span.span.spanContext();
  return `00-${traceId}-${spanId}-01`;
};

const contextOfTraceparent = (traceparent: string): Context | undefined => {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(traceparent);
  return match ? trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1]!, spanId: match[2]!, traceFlags: TraceFlags.SAMPLED, isRemote: true }) : undefined;
};

/** A span as the code that runs in it sees it: attributes to add as it learns them. Inert when tracing is off. */
export interface SpanHandle {
  readonly span: Span | undefined;
  set(attributes: Attributes): void;
}

const INERT: SpanHandle = { span: undefined, set: () => {} };

export interface SpanOptions {
  readonly attributes?: Attributes;
  /** The click this span works for: its parent when no span is active here. */
  readonly correlationId?: string | undefined;
  /** A span context handed over by another process (`traceparentOf`): the parent, before anything else. */
  readonly traceparent?: string | undefined;
  /** Other clicks this span also works for (a projector's batch of several), as links to their traces. */
  readonly alsoFor?: readonly string[];
  readonly kind?: "server" | "internal";
}

/** Most links a span takes: a batch of thousands of clicks (a rebuild) is not a thousand links. */
const MOST_LINKS = 32;

const parentOf = (options: SpanOptions): Context => {
  const handed = options.traceparent === undefined ? undefined : contextOfTraceparent(options.traceparent);
  if (handed) return handed;
  const active = context.active();
  if (trace.getSpan(active) !== undefined) return active;
  return options.correlationId === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, clickSpanContext(options.correlationId));
};

/** Runs `fn` in a span named `name`, ended when `fn` settles; a throw marks it failed. */
export const inSpan = async <T>(name: string, options: SpanOptions, fn: (span: SpanHandle) => Promise<T>): Promise<T> => {
  if (tracer === undefined) return fn(INERT);
  const links: Link[] = (options.alsoFor ?? []).slice(0, MOST_LINKS).map((correlationId) => ({ context: clickSpanContext(correlationId) }));
  const span = tracer.startSpan(
    name,
    { kind: options.kind === "server" ? SpanKind.SERVER : SpanKind.INTERNAL, attributes: options.attributes ?? {}, links },
    parentOf(options),
  );
  const handle: SpanHandle = { span, set: (attributes) => span.setAttributes(attributes) };
  try {
    return await context.with(trace.setSpan(context.active(), span), () => fn(handle));
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
};
