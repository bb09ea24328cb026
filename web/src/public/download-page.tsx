import { easternTime, type LandingDomain, type PublicDownloadEntry, type PublicDownloadHistory } from "@etd/contract";
import { ACCESS, ORDER_PAGE } from "@etd/contract/endpoints";
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "../components/ui/toast.tsx";
import { trackPath, type Navigate } from "./public-routes.ts";
import { callPublic } from "./public-api.ts";

/*
 * PUBLIC-2: the completion text, Download Now (disabled until the order has a document) and the
 * Downloaded History. Everything needs the grant track-order set: without one, or with another
 * order's, the server answers 403 and the visitor is sent back to the track page, having seen
 * nothing of the order. Download Now records the download; on status 1 the history reloads and
 * the browser's download starts about a second later (001 §4, §9). A failed download is only
 * logged (001 §8), except a lapsed grant, which sends the visitor to track again.
 *
 * The history is one table. On a phone or a narrow tablet (public.css, below 60em) each download
 * shows as a block of labelled values instead of a row: the labels are the column names, drawn
 * from each cell's data-label and hidden from screen readers, which read the table's headers.
 */

/** 001 §9: the download starts about one second after a successful request. */
export const DOWNLOAD_DELAY_MS = 1000;

const UNKNOWN = "Unknown";

export const HISTORY_COLUMNS = ["#", "Order ID", "Date and Time (EST)", "Device IP Address", "Device", "Device Type", "Browser", "OS", "Device Location"] as const;

const cells = (entry: PublicDownloadEntry, index: number): readonly string[] => [
  String(index + 1),
  entry.order_id,
  easternTime(entry.create_ts),
  entry.ip ?? UNKNOWN,
  entry.device ?? UNKNOWN,
  entry.device_type ?? UNKNOWN,
  entry.browser ?? UNKNOWN,
  entry.os ?? UNKNOWN,
  entry.location ?? UNKNOWN,
];

/** Starts the browser's download of a link the server answers as an attachment. */
const startDownload = (link: string) => {
  const anchor = document.createElement("a");
  anchor.href = link;
  anchor.download = "";
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
};

type Loaded = { readonly state: "loading" } | { readonly state: "ready"; readonly history: PublicDownloadHistory } | { readonly state: "failed"; readonly message: string };

export const DownloadPage = ({ orderId, navigate, onBrand }: { readonly orderId: string; readonly navigate: Navigate; readonly onBrand: (brand: LandingDomain) => void }) => {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const load = useCallback(async () => {
    const answer = await callPublic(ORDER_PAGE.getDownloadHistory, { orderId });
    if (answer.status === 1) {
      const history = answer as unknown as PublicDownloadHistory;
      onBrand(history.mainResult.landing_domain);
      setLoaded({ state: "ready", history });
      return;
    }
    // No grant for this order (none, lapsed, another order's) or the order is gone: track first.
    if (answer.httpStatus === 403 || answer.httpStatus === 404) {
      navigate(trackPath(orderId), { replace: true });
      return;
    }
    setLoaded({ state: "failed", message: answer.message });
  }, [orderId, navigate, onBrand]);

  useEffect(() => {
    void load();
  }, [load]);

  if (loaded.state === "loading") {
    // Keyed so the order's cards replace this one: Preact (ADR 0038) would otherwise reuse its
    // <p> for the first paragraph below the heading, and a shown node moving down is a layout shift.
    return (
      <section key="loading" className="public-card" aria-busy="true">
        <p>Loading your order…</p>
      </section>
    );
  }
  if (loaded.state === "failed") {
    return (
      <section className="public-card">
        <h1>We could not load your order</h1>
        <p role="alert">{loaded.message}</p>
        <button type="button" className="public-button" onClick={() => void load()}>
          Try again
        </button>
      </section>
    );
  }

  const { history } = loaded;
  const file = history.path.file1;
  const download = async () => {
    if (file === null || busy) return;
    setBusy(true);
    const answer = await callPublic(ACCESS.downloadDocument, { orderId, customername: history.mainResult.first_name, file1: file });
    setBusy(false);
    if (answer.status !== 1) {
      console.error(`Download refused: ${answer.message}`);
      if (answer.httpStatus === 403) navigate(trackPath(orderId), { replace: true });
      return;
    }
    toast.success(answer.message);
    await load();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => startDownload(answer.data.link), DOWNLOAD_DELAY_MS);
  };

  return (
    <>
      <section className="public-card" aria-labelledby="download-title">
        <h1 id="download-title">Thank you{history.mainResult.first_name ? `, ${history.mainResult.first_name}` : ""}</h1>
        <p>Your application for an Electronic Travel Declaration has been completed successfully.</p>
        <p className="muted">Order ID: {history.mainResult.order_id}</p>
        {file === null && <p>Your document is being prepared. Download Now becomes available as soon as it is ready, and we will e-mail you as well.</p>}
        <button type="button" className="public-button" disabled={file === null || busy} onClick={() => void download()}>
          {busy ? "Preparing…" : "Download Now"}
        </button>
      </section>
      <section className="public-card" aria-labelledby="history-title">
        <h2 id="history-title">Downloaded History</h2>
        <div className="public-table-scroll" role="region" aria-labelledby="history-title" tabIndex={0}>
          <table className="public-table">
            <thead>
              <tr>
                {HISTORY_COLUMNS.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {history.data.length === 0 ? (
                <tr>
                  <td colSpan={HISTORY_COLUMNS.length}>No record found</td>
                </tr>
              ) : (
                history.data.map((entry, index) => (
                  <tr key={`${entry.create_ts}-${index}`}>
                    {cells(entry, index).map((cell, column) => (
                      <td key={HISTORY_COLUMNS[column]} data-label={HISTORY_COLUMNS[column]}>
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <p className="public-attribution">
          Device locations: <a href="https://db-ip.com">IP Geolocation by DB-IP</a>
        </p>
      </section>
    </>
  );
};
