import { useEffect, useRef, useState } from "react";

/** 000 §9, 001 §5: a search box (the queues', the reports') reports its text 500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * The search box's own text (what the user sees at once) and the debounced commit of it. The
 * committed value lives elsewhere (the URL), so a change there (back button) resets the box.
 */
export const useDebouncedSearch = (committed: string, commit: (value: string) => void): [string, (value: string) => void] => {
  const [text, setText] = useState(committed);
  const latestCommit = useRef(commit);
  useEffect(() => {
    latestCommit.current = commit;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // What this box committed last: its own commit coming back must not undo newer keystrokes.
  const sent = useRef(committed);

  useEffect(() => {
    if (committed !== sent.current) {
      sent.current = committed;
      clearTimeout(timer.current);
      setText(committed);
    }
  }, [committed]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (value === sent.current) return;
      sent.current = value;
      latestCommit.current(value);
    }, SEARCH_DEBOUNCE_MS);
  };
  return [text, change];
};
