import { useSyncExternalStore } from "react";
import { ToggleButton } from "react-aria-components";
import { dueText, dueUrgency, type DueFilter } from "@etd/contract";
import type { QueueRow } from "../utils/queue-queries.ts";

/*
 * Due in the queues (issue 27, ADR 0036): the Due cell, the due filters and the clock that moves
 * the cells on. The server sends when each order is due (due_at) and a paused clock's time left;
 * the words ("due in 2 h 10 min", "overdue 35 min") are counted from now here, so they move on as
 * time passes without asking the server again. Colour says the same as the words, never alone.
 */

const MINUTE = 60_000;

/* One timer for every Due cell on screen: the time, to the minute the words show. */
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, MINUTE);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};

/** Now, moved on once a minute while anything on screen reads it. */
export const useMinuteClock = (): number => useSyncExternalStore(subscribe, () => now);

/** The Due cell: the clock in words, coloured by how urgent it is (the words say it too). */
export const DueCell = ({ row }: { row: QueueRow }) => {
  const at = useMinuteClock();
  return <span className={`due-badge due-${dueUrgency(row, at)}`}>{dueText(row, at)}</span>;
};

const FILTER_LABELS: { readonly [F in DueFilter]: string } = { overdue: "Overdue", "within-hour": "Due within the hour" };

/**
 * The due filters (issue 27): one at a time; pressing the chosen one again shows every order.
 * The list's count follows (the server counts the filtered orders).
 */
export const DueFilters = ({ value, onChange }: { value: DueFilter | undefined; onChange: (next: DueFilter | undefined) => void }) => (
  <div className="due-filters" role="group" aria-label="Show orders by due time">
    {(Object.keys(FILTER_LABELS) as DueFilter[]).map((filter) => (
      <ToggleButton key={filter} className="due-filter" isSelected={value === filter} onChange={(selected) => onChange(selected ? filter : undefined)}>
        {FILTER_LABELS[filter]}
      </ToggleButton>
    ))}
  </div>
);
