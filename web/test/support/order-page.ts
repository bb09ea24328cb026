import type { Page } from "puppeteer-core";
import type { E2eApp, StaffMember } from "./e2e-app.ts";
import { POLL } from "./page-helpers.ts";

/*
 * Opening the order page (issue 11) in the browser tests: wait for the read model to have the
 * order, open the page signed in, and wait until it shows that order (in a given status).
 */

/** Waits until the page shows order `orderId`, in `status` (the status value, e.g. "AwaitingGovt") when given. */
export const shownOrder = async (page: Page, orderId: string, status?: string, timeout?: number): Promise<void> => {
  await page.waitForFunction(
    (id, wanted) => {
      const root = document.querySelector<HTMLElement>(".order-page[data-status]");
      return root?.querySelector("h1")?.textContent === `View Order ${id}` && (wanted === null || root.dataset.status === wanted);
    },
    { ...POLL, ...(timeout === undefined ? {} : { timeout }) },
    orderId,
    status ?? null,
  );
};

export interface OrderPages {
  /**
   * Waits until the order detail read model has the order: orders are placed through the API
   * just before a page opens, and the live feed only reports changes made after it connects.
   */
  readable(orderId: string): Promise<void>;
  /** A new page of `member` on the order, once it shows it (in `status` when given). */
  open(member: Pick<StaffMember, "email" | "password">, orderId: string, status?: string): Promise<Page>;
}

export const orderPages = (app: E2eApp, adminToken: () => string): OrderPages => {
  const readable = async (orderId: string) => {
    // Generous: a fresh server's projections may start slowly on a busy machine.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await app.api("GET", `/admin/get-orders-details/${orderId}`, undefined, adminToken());
      if (answer.body.status === 1) return;
      if (Date.now() > deadline) throw new Error(`order ${orderId} never became readable: ${answer.status} ${answer.body.message}\n${app.serverOutput().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const open = async (member: Pick<StaffMember, "email" | "password">, orderId: string, status?: string) => {
    await readable(orderId);
    const page = await app.newPage();
    await app.openSignedIn(page, member, `/admin/view-order/${orderId}`);
    try {
      await shownOrder(page, orderId, status);
    } catch (error) {
      const text = await page.$eval("main", (main) => main.textContent).catch(() => "(no main)");
      throw new Error(`the page never showed order ${orderId} (${status}): ${text}`, { cause: error });
    }
    return page;
  };
  return { readable, open };
};

/** The smallest PDF a browser and the server's sniffing take for one. */
export const TINY_PDF = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;
