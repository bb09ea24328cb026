/** The browser-test harness (see e2e-app.ts); import everything from here. */
export { chromiumAvailable, CHROMIUM } from "./chromium.ts";
export { startE2eApp, type E2eApp, type StaffMember, type Role, type ApiAnswer, type PageOptions } from "./e2e-app.ts";
export { runAxe, seriousViolations, type AxeViolation } from "./axe.ts";
export { POLL, setInputValue, currentPath, waitForPath, waitForText, hasText, toasts, waitForToast, menuLabels, shownCount } from "./page-helpers.ts";
export { orderPages, shownOrder, TINY_PDF, type OrderPages } from "./order-page.ts";
