import type { Page } from "puppeteer-core";

/*
 * Reading the page as a user would: visible text, toasts, the current path. Each waits (up to
 * the page's default timeout) rather than sleeping. Waits poll on a timer, not on animation
 * frames, which a browser may withhold from a page that is not in front.
 */

/** Polling for every `page.waitForFunction` in browser tests: pass it as the options. */
export const POLL = { polling: 50 } as const;

/**
 * Sets an input's value the way the browser's own pickers do (date, date-time): the value property,
 * which React watches, then one input and one change event. Typing cannot reach these inputs.
 */
export const setInputValue = async (page: Page, selector: string, value: string): Promise<void> => {
  await page.$eval(
    selector,
    (el, text) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(el, text);
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    },
    value,
  );
};

/** The path the app shows now. */
export const currentPath = (page: Page): Promise<string> => page.evaluate(() => location.pathname);

/** Waits until the app is at this path. */
export const waitForPath = async (page: Page, path: string): Promise<void> => {
  await page.waitForFunction((expected) => location.pathname === expected, POLL, path);
};

/** Waits until some element's own visible text is exactly `text` (trimmed). */
export const waitForText = async (page: Page, text: string): Promise<void> => {
  await page.waitForFunction(
    (expected) =>
      [...document.querySelectorAll<HTMLElement>("body *")].some(
        (el) => el.offsetParent !== null && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim() === expected),
      ),
    POLL,
    text,
  );
};

/** True when an element with exactly this visible text is on the page now. */
export const hasText = (page: Page, text: string): Promise<boolean> =>
  page.evaluate(
    (expected) =>
      [...document.querySelectorAll<HTMLElement>("body *")].some(
        (el) => el.offsetParent !== null && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim() === expected),
      ),
    text,
  );

/** The toasts showing now, as `{kind, message}`. */
export const toasts = (page: Page): Promise<{ kind: "success" | "error"; message: string }[]> =>
  page.$$eval(".toaster .toast", (items) =>
    items.map((el) => ({ kind: el.classList.contains("toast-error") ? ("error" as const) : ("success" as const), message: el.querySelector("span")?.textContent ?? "" })),
  );

/** Waits for a toast of this kind with exactly this message. */
export const waitForToast = async (page: Page, kind: "success" | "error", message: string): Promise<void> => {
  await page.waitForFunction(
    (k, m) => [...document.querySelectorAll(`.toaster .toast-${k} span`)].some((el) => el.textContent === m),
    POLL,
    kind,
    message,
  );
};

/** The side menu's entries, by label, in order. */
export const menuLabels = (page: Page): Promise<string[]> =>
  page.$$eval('nav[aria-label="Main menu"] .side-menu-label', (items) => items.map((el) => el.textContent ?? ""));

/** The number a folder count shows (badge or tile), by its counts-object field, e.g. "newOrdersCount". */
export const shownCount = (page: Page, field: string): Promise<number | undefined> =>
  page.evaluate((name) => {
    const text = document.querySelector(`[data-count="${name}"]`)?.textContent;
    return text === undefined || text === null || !/^\d+$/.test(text) ? undefined : Number(text);
  }, field);
