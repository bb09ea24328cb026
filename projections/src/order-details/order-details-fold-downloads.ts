import type { DownloadHistoryEntry } from "@etd/contract";
import { isErased } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import type { TableFold } from "./order-details-fold-shared.ts";

/* download_history: one row per download of the finished document; only ever added. */

/**
 * The row is the answer's line (ORDER-8) under its table's key, plus its place in the stream. All
 * but the time and the record's time zone is personal (sealed in the event): the address, the
 * place, the file's name and the device, which the visitor's own User-Agent describes. Blanked on
 * a permanent delete.
 */
export type DownloadRow = Omit<DownloadHistoryEntry, "id"> & { readonly download_id: string; readonly stream_position: number };

/** What a permanent delete leaves of a download's row: its time and the record's time zone. */
export const ERASED_DOWNLOAD = { ip: null, location: null, browser: null, os: null, device: null, device_type: null, file: "" } as const satisfies Partial<DownloadRow>;

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
          browser: personal?.browser ?? null,
          os: personal?.os ?? null,
          device: personal?.device ?? null,
          device_type: personal?.deviceType ?? null,
          file: personal?.fileName ?? "",
        });
        break;
      }
      case "OrderPermanentlyDeleted": {
        // The time stays; where it came from, the device and the file's name go. Earlier batches'
        // rows are blanked by the projection (BatchChanges.erasedOrders).
        const { orderId } = event.data;
        for (const [i, download] of downloads.entries()) {
          if (download.order_id === orderId) downloads[i] = { ...download, ...ERASED_DOWNLOAD };
        }
        break;
      }
    }
  };

  return { step, changes: () => downloads };
};
