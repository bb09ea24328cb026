import { createChainVerifier, type ChainBreak, type ChainReport, type ExportedEvent } from "./event-chain.ts";

/*
 * The audit export (issue 14, ADR 0021): JSON lines, a header first, then one stored event per
 * line with every field as the text its hashes were computed over, and its predecessors' hashes.
 * An auditor verifies it with no database (`npm run audit:verify -- --file <export>`).
 */

const EXPORT_FORMAT = "etd-audit-export";

/** What the file holds: one order's streams (each from its first event), or a slice of the log. */
export type ExportScope = { readonly scope: "order"; readonly orderId: string } | { readonly scope: "log"; readonly from: string; readonly to: string };

export type ExportHeader = ExportScope & { readonly format: typeof EXPORT_FORMAT; readonly version: 1; readonly exportedAt: string };

const exportHeader = (scope: ExportScope, exportedAt: Date): string =>
  `${JSON.stringify({ format: EXPORT_FORMAT, version: 1, ...scope, exportedAt: exportedAt.toISOString() } satisfies ExportHeader)}\n`;

const exportLine = (event: ExportedEvent): string => `${JSON.stringify(event)}\n`;

/**
 * The last line: how many events the file holds and where each stream ends in it. A file cut
 * short, or missing lines at a stream's end (a mail's last report, a whole mail), no longer
 * matches it. Someone rewriting the file can rewrite this line too: only a head hash kept outside
 * the system tells that (ADR 0021).
 */
export interface ExportTrailer {
  readonly end: true;
  readonly events: number;
  readonly streams: Readonly<Record<string, string>>;
}

/** The lines of an export, as a stream of text chunks for an HTTP answer. */
export async function* exportFile(scope: ExportScope, exportedAt: Date, events: AsyncIterable<ExportedEvent>): AsyncGenerator<string> {
  yield exportHeader(scope, exportedAt);
  const streams: Record<string, string> = {};
  let count = 0;
  for await (const event of events) {
    streams[event.streamId] = event.streamPosition;
    count += 1;
    yield exportLine(event);
  }
  yield `${JSON.stringify({ end: true, events: count, streams } satisfies ExportTrailer)}\n`;
}

const HEX = /^[0-9a-f]{64}$/;
const TEXT_FIELDS = ["streamId", "streamPosition", "eventId", "type", "schemaVersion", "data", "metadata", "recordedAt"] as const;

/** One line read back: every field present with the right kind, or why not. */
const decodeLine = (text: string): ExportedEvent | string => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "is not JSON";
  }
  if (typeof value !== "object" || value === null) return "is not an event";
  const line = value as Record<string, unknown>;
  for (const field of TEXT_FIELDS) if (typeof line[field] !== "string") return `has no ${field}`;
  if (!/^[1-9]\d{0,18}$/.test(line.streamPosition as string)) return "has no valid streamPosition";
  for (const field of ["hash", "previous"] as const) if (typeof line[field] !== "string" || !HEX.test(line[field])) return `has no valid ${field}`;
  for (const field of ["chain", "previousChain"] as const) {
    if (line[field] !== null && (typeof line[field] !== "string" || !HEX.test(line[field]))) return `has no valid ${field}`;
  }
  return line as unknown as ExportedEvent;
};

export interface ExportVerification extends ChainReport {
  readonly header: ExportHeader | undefined;
  /** The 1-based line the break is on, the header being line 1. */
  readonly line: number | undefined;
  /** A line that could not be read at all. */
  readonly unreadable: string | undefined;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Whether an event belongs in the file its header describes. */
const inScope = (header: ExportHeader, event: ExportedEvent, orderEvents: ReadonlySet<string>): boolean => {
  if (header.scope === "log") return true;
  // An order's own stream, or a mail one of its events (met earlier in the file) asked for.
  return event.streamId === `order-${header.orderId}` || (event.streamId.startsWith("mail-") && orderEvents.has(event.streamId.slice(5)));
};

/** Verifies an export's lines without a database, and names the first that does not match. */
export const verifyExport = async (lines: AsyncIterable<string> | Iterable<string>): Promise<ExportVerification> => {
  let header: ExportHeader | undefined;
  let trailer: ExportTrailer | undefined;
  let verifier: ReturnType<typeof createChainVerifier> | undefined;
  let number = 0;
  const seen: Record<string, string> = {};
  const orderEvents = new Set<string>();
  let first: ExportedEvent | undefined;
  let last: ExportedEvent | undefined;
  const stop = (firstBreak: ChainBreak | undefined, unreadable?: string): ExportVerification => ({
    ...(verifier?.report(firstBreak) ?? { checked: 0, sealed: 0, firstBreak, head: null }),
    header,
    line: firstBreak || unreadable ? number : undefined,
    unreadable,
  });
  for await (const text of lines) {
    number += 1;
    if (text.trim() === "") continue;
    if (trailer) return stop(undefined, `line ${number} follows the file's last line`);
    const value = parse(text);
    if (!header) {
      const parsed = (typeof value === "object" && value !== null ? value : {}) as Partial<ExportHeader>;
      if (parsed.format !== EXPORT_FORMAT || parsed.version !== 1 || (parsed.scope !== "order" && parsed.scope !== "log")) {
        return stop(undefined, `line 1 is not the header of an ${EXPORT_FORMAT} file, version 1`);
      }
      header = parsed as ExportHeader;
      // One order's streams are complete from their first event but not neighbours in the log;
      // a slice of the log is consecutive, and starts on anchors.
      verifier = createChainVerifier(header.scope === "order" ? { partial: false, consecutive: false } : { partial: true, consecutive: true });
      continue;
    }
    if (typeof value === "object" && value !== null && (value as { end?: unknown }).end === true) {
      trailer = value as ExportTrailer;
      continue;
    }
    const event = decodeLine(text);
    if (typeof event === "string") return stop(undefined, `line ${number} ${event}`);
    if (!inScope(header, event, orderEvents)) return stop(undefined, `line ${number} (${event.streamId}) is not part of what the header says the file holds`);
    const broken = verifier!.check(event);
    if (broken) return stop(broken);
    if (event.streamId === `order-${header.scope === "order" ? header.orderId : ""}`) orderEvents.add(event.eventId);
    seen[event.streamId] = event.streamPosition;
    first ??= event;
    last = event;
  }
  if (!header) return stop(undefined, "the file is empty");
  if (!trailer) return stop(undefined, "the file ends without its last line: it was cut short");
  const report = verifier!.report(undefined);
  const ends = (streams: Readonly<Record<string, string>>) => JSON.stringify(Object.entries(streams).sort(([a], [b]) => (a < b ? -1 : 1)));
  if (trailer.events !== report.checked || ends(trailer.streams ?? {}) !== ends(seen)) {
    return stop(undefined, `the file holds ${report.checked} events, its last line says ${String(trailer.events)}, or its streams end elsewhere: lines are missing`);
  }
  // To the millisecond: the header's moments have no more, and the stored times are truncated alike.
  if (header.scope === "log" && first && last && (Date.parse(first.recordedAt) < Date.parse(header.from) || Date.parse(last.recordedAt) > Date.parse(header.to))) {
    return stop(undefined, `its events were recorded outside the range its header names (${header.from} to ${header.to})`);
  }
  return stop(undefined);
};
