import { useEffect, useRef, useState } from "react";

/** 000 §9: a search box sends its text 500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * The search box's text as typed, and its setter. The text is handed to `commit` (which puts it
 * in the URL) once typing pauses for 500 ms; when the URL's value changes by itself (back button,
 * a link), the box shows it.
 */
export const useDebouncedSearch = (committed: string, commit: (text: string) => void): readonly [string, (text: string) => void] => {
  const [text, setText] = useState(committed);
  const [shown, setShown] = useState(committed);
  if (shown !== committed) {
    // The URL moved without typing: adopt it (React's "adjust state on prop change" pattern).
    setShown(committed);
    setText(committed);
  }
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => {
    if (text === committed) return;
    const timer = setTimeout(() => commitRef.current(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, committed]);
  return [text, setText] as const;
};
