import type { LandingDomain, OrderStatus } from "./vocabulary.ts";

/*
 * What the traveller's pages read (PUBLIC-1, PUBLIC-2, 001 §7): the answers of `/front/*` beyond
 * the envelope. The public web entry imports these types only.
 */

/** `data` of a matching POST /front/track-order; the grant itself travels as an HttpOnly cookie. */
export interface TrackOrderAnswer {
  readonly orderId: string;
  readonly documentReady: boolean;
}

/** `data` of POST /front/download-passport-doc-pdf: where the browser fetches the file. */
export interface DownloadAnswer {
  readonly link: string;
}

/** One download as the public page lists it (PUBLIC-2). Parts the device did not tell are null. */
export interface PublicDownloadEntry {
  readonly order_id: string;
  readonly create_ts: string;
  /** Masked: "203.0.113.xxx" (see projections' `maskIp`). */
  readonly ip: string | null;
  readonly timezone: string | null;
  readonly browser: string | null;
  readonly os: string | null;
  readonly device: string | null;
  readonly device_type: string | null;
  /** The country the address belongs to (DB-IP Lite), or null. */
  readonly location: string | null;
  readonly file: string;
}

/** What the public page may know of the order: nothing more personal than its greeting. */
export interface PublicOrderSummary {
  readonly order_id: string;
  readonly first_name: string;
  readonly process_status: OrderStatus;
  /** PUBLIC-3: the page's brand follows the order's landing domain. */
  readonly landing_domain: LandingDomain;
}

/** POST /front/get-download-history: these keys sit beside status and message (001 §7). */
export interface PublicDownloadHistory {
  readonly data: readonly PublicDownloadEntry[];
  readonly mainResult: PublicOrderSummary;
  /** The current document's file name; null until one is uploaded (Download Now stays disabled). */
  readonly path: { readonly file1: string | null };
}
