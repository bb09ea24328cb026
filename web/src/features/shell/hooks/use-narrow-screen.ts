import { useSyncExternalStore } from "react";

/** Below 992 px the side menu becomes a drawer (SHELL-3); the same breakpoint as the CSS. */
const NARROW = "(max-width: 991px)";

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(NARROW);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

export const useNarrowScreen = (): boolean => useSyncExternalStore(subscribe, () => window.matchMedia(NARROW).matches);
