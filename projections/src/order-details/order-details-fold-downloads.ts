import type { DownloadHistoryEntry } from "@etd/contract";
import { isErased } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import type { TableFold } from "./order-details-fold-shared.ts";

/* download_history: one row per download of the finished document; only ever added. */

/** The row is the answer's line (ORDER-8) under its table's key, plus its place in the stream. ip and location are personal: blanked on a permanent delete. */
export type DownloadRow = Omit<DownloadHistoryEntry, "id"> & { readonly download_id: string; readonly stream_position: number };

export const foldDownloads = (): TableFold<DownloadRow> => {
  const downloads: DownloadRow[] = [];

  const step = ({ event, eventId, streamPosition }: ProjectedEvent) => {
    switch (event.type) {
      case "DocumentDownloaded": {
        const { data } = event;
        const personal = isErased(data.personal) ? undefined : data.personal;
        downloads.push({
          download_id: eventId,
          order_id: data.orderId,
          stream_position: Number(streamPosition),
          create_ts: event.metadata.occurredAt,
          ip: personal?.ip ?? null,
          location: personal?.location ?? null,
          timezone: data.timezone ?? null,
          browser: data.browser ?? null,
          os: data.os ?? null,
          device: data.device ?? null,
          device_type: data.deviceType ?? null,
          file: data.fileName,
        });
        break;
      }
      case "OrderPermanentlyDeleted": {
        // Browser, device and time stay; where it came from and the file's name go. Earlier batches' rows are
        // blanked by the projection (BatchChanges.erasedOrders).
        const { orderId } = event.data;
        for (const [i, download] of downloads.entries()) {
          if (download.order_id === orderId) downloads[i] = { ...download, ip: null, location: null, file: "" };
        }
        break;
      }
    }
  };

  return { step, changes: () => downloads };
};
