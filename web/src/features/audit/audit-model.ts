import { COUNT_FIELD_OF, QUEUE_KEYS, type AuditChange, type AuditEvent, type ChainVerification, type Envelope, type QueueKey } from "@etd/contract";
import { DASHBOARD_TILES, MENU_ENTRIES } from "../../lib/menu-entries.ts";

/*
 * The Audit area's pure rules (CARD-4, issue 14): how a diff's kinds are shown, which moment the
 * replay slider stands on, how the screens' date-time inputs map to instants, and what the
 * screens' URLs may hold. The console shows times in US Eastern (the contract's easternTime), so
 * the moments an auditor types are read as US Eastern wall time too, whatever the browser's zone.
 */

// --- answers ------------------------------------------------------------------------------------

/** The answer's data when the server said yes, else undefined. */
export const dataOf = <T,>(answer: Envelope<T | null> | undefined): T | undefined => (answer?.status === 1 && answer.data !== null ? answer.data : undefined);

// --- diff kinds ---------------------------------------------------------------------------------

export interface DiffKindView {
  /** The word shown in the row: never colour alone (WCAG 1.4.1). */
  readonly word: string;
  /** A symbol beside the word, hidden from screen readers (the word says it). */
  readonly icon: string;
  readonly className: string;
}

const DIFF_KINDS: { readonly [K in AuditChange["kind"]]: DiffKindView } = {
  added: { word: "Added", icon: "+", className: "audit-change-added" },
  changed: { word: "Changed", icon: "±", className: "audit-change-changed" },
  removed: { word: "Removed", icon: "−", className: "audit-change-removed" },
};

export const diffKindView = (kind: AuditChange["kind"]): DiffKindView => DIFF_KINDS[kind];

/** A field's value as a cell shows it: text as is, nothing as a dash, anything else as compact JSON. */
export const presentValue = (value: unknown): string => {
  if (value === undefined || value === null || value === "") return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
};

/** Every leaf of a JSON value by dotted path, in key order; lists are one leaf (shown as JSON). */
export const flattenFields = (value: unknown, prefix = ""): [path: string, value: unknown][] => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return prefix ? [[prefix, value]] : [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => flattenFields(inner, prefix ? `${prefix}.${key}` : key));
};

// --- the replay slider --------------------------------------------------------------------------

/**
 * The slider runs over the events, 1 to n: at position k the order is shown as it stood after
 * event k, asked of the server at event k's own time. Out-of-range positions are clamped, so a
 * stale position (fewer events than before) still names an event.
 */
export const clampPosition = (position: number, count: number): number =>
  count === 0 ? 0 : Math.min(count, Math.max(1, Math.round(Number.isFinite(position) ? position : count)));

/** The event at slider position k (1-based), or undefined for an empty history. */
export const eventAtPosition = (events: readonly AuditEvent[], position: number): AuditEvent | undefined =>
  events[clampPosition(position, events.length) - 1];

/** The slider position of an event (1-based), or 0 when it is not in the list. */
export const positionOfEvent = (events: readonly AuditEvent[], eventId: string): number => events.findIndex((event) => event.eventId === eventId) + 1;

/**
 * The moment to ask as-of for at slider position k. Two events can share a millisecond (a remark
 * whose flag moves the order records both at once): the moment is then the later one's too, and
 * the panel says how many events the server applied.
 */
export const momentAtPosition = (events: readonly AuditEvent[], position: number): string | undefined => eventAtPosition(events, position)?.occurredAt;

// --- US Eastern date-time inputs ----------------------------------------------------------------

const NEW_YORK = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

const wallClock = (ms: number) => {
  const parts = Object.fromEntries(NEW_YORK.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  const n = (type: string) => Number(parts[type]);
  return { year: n("year"), month: n("month"), day: n("day"), hour: n("hour"), minute: n("minute"), second: n("second") };
};

/** How far New York's wall clock is ahead of UTC at instant `ms` (negative: behind). */
const newYorkOffset = (ms: number): number => {
  const wall = wallClock(ms);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - Math.floor(ms / 1000) * 1000;
};

const INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A datetime-local value ("2025-03-14T10:04" or with seconds), read as US Eastern wall time, as
 * an ISO instant; undefined when it is not one. In the hour skipped in spring the clock's later
 * reading wins, as a wall clock set forward would show it.
 */
export const easternInputToIso = (value: string): string | undefined => {
  const match = INPUT.exec(value.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = "0"] = match.slice(1).map((part) => part ?? "0");
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (Number.isNaN(wall)) return undefined;
  // The offset depends on the instant sought: guess with the wall time's own, then correct once.
  const guess = wall - newYorkOffset(wall);
  return new Date(wall - newYorkOffset(guess)).toISOString();
};

const two = (n: number) => String(n).padStart(2, "0");

/** An instant as a datetime-local value in US Eastern wall time, to the second. */
export const isoToEasternInput = (iso: string): string => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  const w = wallClock(ms);
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
};

// --- the folders, with their menu labels ---------------------------------------------------------

export interface FolderOption {
  readonly key: QueueKey;
  readonly label: string;
}

/**
 * Every folder a queue-at-a-moment may show, in the order the dashboard and the menu show them, with
 * their labels there: a folder's entry is the one whose badge shows its count (the contract's
 * COUNT_FIELD_OF).
 */
export const FOLDER_OPTIONS: readonly FolderOption[] = (() => {
  const labelled = [...DASHBOARD_TILES, ...MENU_ENTRIES];
  const options = QUEUE_KEYS.map((key): FolderOption & { order: number } => {
    const index = labelled.findIndex((entry) => entry.count === COUNT_FIELD_OF[key]);
    return { key, label: index >= 0 ? labelled[index]!.label : key, order: index >= 0 ? index : labelled.length };
  });
  return options.sort((a, b) => a.order - b.order).map(({ key, label }) => ({ key, label }));
})();

export const folderLabel = (key: QueueKey): string => FOLDER_OPTIONS.find((option) => option.key === key)?.label ?? key;


// --- the verify badge ------------------------------------------------------------------------------

export interface VerifyBadgeView {
  readonly tone: "ok" | "broken" | "unknown";
  readonly icon: string;
  readonly text: string;
}

export const verifyBadgeView = (verification: ChainVerification | undefined): VerifyBadgeView => {
  if (!verification) return { tone: "unknown", icon: "?", text: "Not verified yet" };
  if (verification.ok && !verification.firstBreak) return { tone: "ok", icon: "✓", text: `Log verified: ${verification.checked} events, chain intact` };
  const at = verification.firstBreak;
  return {
    tone: "broken",
    icon: "✗",
    text: at ? `Tampering detected at ${at.streamId} #${at.streamPosition} (${at.eventId})` : "Tampering detected",
  };
};

// --- the order as it stood ---------------------------------------------------------------------------

export interface OrderHeadline {
  /** False before the order was placed (a moment before its first event). */
  readonly exists: boolean;
  readonly statusLabel: string;
  readonly assignee: string;
}

/** What the replay panel leads with: the order's status in words and who held it. */
export const orderHeadline = (order: Record<string, unknown>): OrderHeadline => {
  if (order.exists === false) return { exists: false, statusLabel: "Not placed yet", assignee: "—" };
  const statusLabel = typeof order.statusLabel === "string" ? order.statusLabel : typeof order.status === "string" ? order.status : "—";
  const assignee = order.assignee as { staff?: { name?: unknown }; name?: unknown } | string | null | undefined;
  const name = typeof assignee === "string" ? assignee : typeof assignee?.staff?.name === "string" ? assignee.staff.name : typeof assignee?.name === "string" ? assignee.name : undefined;
  return { exists: true, statusLabel, assignee: name ?? "Unassigned" };
};

/** An event as a choice in the compare selects: its place, its time in US Eastern and its sentence. */
export const eventChoiceLabel = (event: AuditEvent, position: number, when: (iso: string) => string): string =>
  `#${position} · ${when(event.occurredAt)} · ${event.summary}`;

/** Who did it, as the timeline names them: "Maria Santos (Manager)". */
export const actorLabel = (event: AuditEvent): string => (event.actor.role ? `${event.actor.name} (${event.actor.role})` : event.actor.name);
