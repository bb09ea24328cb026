import type { LandingDomain } from "@etd/contract";
import type { Page } from "puppeteer-core";
import type { E2eApp } from "./e2e-app.ts";
import { TINY_PDF } from "./order-page.ts";

/*
 * The traveller's pages (PUBLIC-1..3) as the browser tests and the Lighthouse bench reach them:
 * an order made ready through the API (its document, its grant, a recorded download), and the
 * track form filled in as a traveller does.
 */

export interface Traveller {
  readonly email: string;
  readonly firstName: string;
  readonly landingDomain: LandingDomain;
}

export interface ReadyOrder {
  readonly orderId: string;
  /** The grant cookie's (etd_grant) value for `orderId`, as track-order set it. */
  readonly grant: string;
}

/** The value of `name` among a response's Set-Cookie headers. */
const cookieValue = (response: Response, name: string): string | undefined => {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const at = pair!.indexOf("=");
    if (pair!.slice(0, at).trim() === name) return pair!.slice(at + 1).trim();
  }
  return undefined;
};

const post = (app: E2eApp, path: string, body: unknown, cookie?: string) =>
  fetch(`${app.base}/api${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

/**
 * Places the traveller's order, uploads its document, tracks it (the grant) and downloads it once,
 * so its download page shows Download Now enabled and one history row.
 */
export const prepareTraveller = async (app: E2eApp, traveller: Traveller): Promise<ReadyOrder> => {
  const [orderId] = await app.placeOrders(1, () => ({ email: traveller.email, confirm_email: traveller.email, first_name: traveller.firstName, landing_domain: traveller.landingDomain }));
  const form = new FormData();
  form.set("orderId", orderId!);
  form.set("email", traveller.email);
  form.set("uploadVisaDoc", new Blob([TINY_PDF], { type: "application/pdf" }), "e-travel.pdf");
  const adminToken = await app.login(app.admin);
  const uploaded = await fetch(`${app.base}/api/admin/upload-visa-document`, { method: "POST", headers: { authorization: adminToken }, body: form });
  const upload = (await uploaded.json()) as { status: number; data?: { position?: string } };
  if (uploaded.status !== 200 || typeof upload.data?.position !== "string") throw new Error(`uploading the document failed: HTTP ${uploaded.status} ${JSON.stringify(upload)}`);
  // The public history reads a read model: wait, as the console does, until it holds the upload.
  const details = await fetch(`${app.base}/api/admin/get-orders-details/${orderId}`, { headers: { authorization: adminToken, "x-read-after": upload.data.position } });
  if (details.headers.get("x-read-after-reached") !== "true") throw new Error(`the order's details did not catch up with the upload: ${await details.text()}`);

  const tracked = await post(app, "/front/track-order", { orderId, email: traveller.email });
  const grant = cookieValue(tracked, "etd_grant");
  if (!grant) throw new Error(`track-order set no grant: HTTP ${tracked.status} ${await tracked.text()}`);
  const cookie = `etd_grant=${grant}`;
  const history = (await (await post(app, "/front/get-download-history", { orderId }, cookie)).json()) as { status: number; path: { file1: string | null } };
  if (history.status !== 1 || !history.path.file1) throw new Error(`the order's history has no document: ${JSON.stringify(history)}`);
  const downloaded = await post(app, "/front/download-passport-doc-pdf", { orderId, customername: traveller.firstName, file1: history.path.file1 }, cookie);
  if (downloaded.status !== 200) throw new Error(`recording a download failed: HTTP ${downloaded.status} ${await downloaded.text()}`);
  return { orderId: orderId!, grant };
};

/** Replaces a track form field's value, typed. */
export const fillTrackField = async (page: Page, id: "track-orderId" | "track-email", value: string): Promise<void> => {
  await page.$eval(`#${id}`, (input) => ((input as HTMLInputElement).value = ""));
  await page.locator(`#${id}`).fill(value);
};

/** Fills the track form and presses TRACK ORDER. */
export const trackOrder = async (page: Page, orderId: string, email: string): Promise<void> => {
  await fillTrackField(page, "track-orderId", orderId);
  await fillTrackField(page, "track-email", email);
  await page.locator("button[type=submit]").click();
};

/** The brand's name in the header. */
export const headerBrand = (page: Page): Promise<string | null> => page.$eval(".public-brand", (el) => el.textContent);
