/** The browser-test harness (see e2e-app.ts); import everything from here. */
export { chromiumAvailable } from "./chromium.ts";
export { startE2eApp, type E2eApp, type StaffMember } from "./e2e-app.ts";
export { seriousViolations, wcagViolations } from "./axe.ts";
export { POLL, setInputValue, currentPath, waitForPath, waitForText, hasText, toasts, waitForToast, menuLabels, shownCount } from "./page-helpers.ts";
export { orderPages, shownOrder, TINY_PDF } from "./order-page.ts";
export { prepareTraveller, fillTrackField, trackOrder, headerBrand, type Traveller, type ReadyOrder } from "./public-pages.ts";
export { writeOrderHistory, type HistoryStep } from "./order-history.ts";
