import { QUEUE_KEYS, type QueueKey } from "@etd/contract";

/*
 * What the Audit screens' URLs may hold (issue 14): the URL is user input, so anything that is
 * not a valid value is left out instead of failing the screen. Kept apart from the screens' other
 * rules: the route tree, which the app loads up front, needs only these.
 */

/** An ISO instant the server takes, or undefined: the URL is user input. */
const momentOf = (value: unknown): string | undefined => {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
};

const staffIdOf = (value: unknown): string | undefined => {
  const text = typeof value === "number" ? String(value) : value;
  return typeof text === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(text) ? text : undefined;
};

export interface QueueAtSearch {
  readonly folder?: QueueKey;
  readonly at?: string;
  readonly page?: number;
  /** My Orders is one member's folder. */
  readonly staffId?: string;
}

export const validateQueueAtSearch = (raw: Record<string, unknown>): QueueAtSearch => {
  const folder = (QUEUE_KEYS as readonly unknown[]).includes(raw.folder) ? (raw.folder as QueueKey) : undefined;
  const at = momentOf(raw.at);
  const pageText = typeof raw.page === "number" ? String(raw.page) : raw.page;
  const page = typeof pageText === "string" && /^[1-9]\d{0,8}$/.test(pageText) ? Number(pageText) : undefined;
  const staffId = staffIdOf(raw.staffId);
  return { ...(folder ? { folder } : {}), ...(at ? { at } : {}), ...(page && page > 1 ? { page } : {}), ...(staffId ? { staffId } : {}) };
};

export interface RangeSearch {
  readonly staffId?: string;
  readonly from?: string;
  readonly to?: string;
}

export const validateRangeSearch = (raw: Record<string, unknown>): RangeSearch => {
  const staffId = staffIdOf(raw.staffId);
  const from = momentOf(raw.from);
  const to = momentOf(raw.to);
  return { ...(staffId ? { staffId } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
};

/** Why a range cannot be asked, or undefined when it can. */
export const rangeProblem = (from: string | undefined, to: string | undefined): string | undefined => {
  if (!from || !to) return "Give both moments: From and To.";
  return Date.parse(from) > Date.parse(to) ? "From must not be after To." : undefined;
};

