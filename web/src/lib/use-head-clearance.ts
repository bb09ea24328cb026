import { useEffect, type RefObject } from "react";

/**
 * Keeps a scrolling table's `--head-height` equal to its sticky column headings' height, which
 * `.table-scroll`'s scroll padding reads: a row brought into view (by Tab, by j and k) then stops
 * below the headings instead of under them (WCAG 2.4.11). The queues' headings wrap between words,
 * so their height depends on the width and is measured, not assumed.
 */
export const useHeadClearance = (scroller: RefObject<HTMLElement | null>): void => {
  useEffect(() => {
    const element = scroller.current;
    const head = element?.querySelector("thead");
    if (!element || !head) return;
    const observer = new ResizeObserver(() => element.style.setProperty("--head-height", `${head.getBoundingClientRect().height}px`));
    observer.observe(head);
    return () => observer.disconnect();
  }, [scroller]);
};
