import { DUE_FILTERS, QUEUE_SORTS, type DueFilter, type PageSize, type QueueSort } from "@etd/contract";
import type { SearchSchemaInput } from "@tanstack/react-router";

/*
 * Page, rows per page and search live in the URL (QUEUE-2), so a list can be bookmarked, shared
 * and reloaded as it stood. The URL is user input: anything that is not a valid value falls back
 * to the default (page 1, 10 rows, no search) instead of failing the screen. Issue 27: the due
 * filter and the due order live there too (`?due=overdue&sort=due`), absent by default.
 */

/** Rows per page, the contract's: 1 to MAX_PAGE_SIZE, or every row. */
export type { PageSize };

/** 000 §9: the queues' rows-per-page choices. */
export const QUEUE_PAGE_SIZES: readonly PageSize[] = [10, 25, 50, 100, 500, "All"];
/** 001 §9: the future-order month table's choices. */
export const FUTURE_PAGE_SIZES: readonly PageSize[] = [5, 10, 20, 50, "All"];
export const DEFAULT_PAGE_SIZE = 10;
/** The server refuses longer searches; the box never sends one. */
export const MAX_SEARCH_LENGTH = 200;

export interface QueueSearch {
  readonly page: number;
  readonly size: PageSize;
  readonly search: string;
  /** Only the overdue orders, or those due within the hour (issue 27). */
  readonly due?: DueFilter | undefined;
  /** `due`: the most urgent first; newest first when absent. */
  readonly sort?: QueueSort | undefined;
}

export interface FutureSearch extends QueueSearch {
  /** The open month ("2025-04"); the month tiles when absent (ADMIN-3). */
  readonly month?: string;
}

const pageOf = (value: unknown): number => {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^[1-9]\d{0,8}$/.test(text) ? Number(text) : 1;
};

const sizeOf = (value: unknown, sizes: readonly PageSize[]): PageSize => {
  if (typeof value === "string" && value.trim().toLowerCase() === "all") return "All";
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return sizes.includes(n) ? n : DEFAULT_PAGE_SIZE;
};

const searchOf = (value: unknown): string =>
  (typeof value === "string" ? value : typeof value === "number" ? String(value) : "").slice(0, MAX_SEARCH_LENGTH);

const monthOf = (value: unknown): string | undefined =>
  typeof value === "string" && /^\d{4}-(0[1-9]|1[0-2])$/.test(value) ? value : undefined;

/**
 * What a link to a queue gives (a field left out takes its default). The validators below read
 * the URL, which is user input, so they take every field as unknown.
 */
export type QueueSearchInput = Partial<QueueSearch> & SearchSchemaInput;
export type FutureSearchInput = Partial<FutureSearch> & SearchSchemaInput;

/** A queue's URL search (`?page=2&size=25&search=gmail`), every field defaulted. */
export const validateQueueSearch = (raw: Record<string, unknown>): QueueSearch => {
  const due = DUE_FILTERS.find((filter) => filter === raw.due);
  const sort = QUEUE_SORTS.find((order) => order === raw.sort);
  return {
    page: pageOf(raw.page),
    size: sizeOf(raw.size, QUEUE_PAGE_SIZES),
    search: searchOf(raw.search),
    ...(due === undefined ? {} : { due }),
    ...(sort === undefined ? {} : { sort }),
  };
};

/** The future-orders URL search: the same, with its own sizes and the open month. */
export const validateFutureSearch = (raw: Record<string, unknown>): FutureSearch => {
  const month = monthOf(raw.month);
  return {
    page: pageOf(raw.page),
    size: sizeOf(raw.size, FUTURE_PAGE_SIZES),
    search: searchOf(raw.search),
    ...(month === undefined ? {} : { month }),
  };
};

/** The rows a search asks for (000 §7 `{start, end}`): the first row, from 0, and the row after the last. */
export const searchWindow = (page: number, size: PageSize): { start: number; end: number | "All" } =>
  size === "All" ? { start: 0, end: "All" } : { start: (page - 1) * size, end: page * size };
