import type { StorageKey } from "@etd/storage";
import type { DocumentContentType } from "./sniff-content-type.ts";

/** A stored upload, as the upload event records it. */
export interface UploadedFile {
  /** The name it is stored and linked under (sanitised, maybe suffixed `-1`); the last part of `storedPath`. */
  readonly fileName: string;
  /** Sniffed from the bytes, never the client's claim. */
  readonly contentType: DocumentContentType;
  readonly sizeBytes: number;
  /** Relative to the storage root, e.g. `docs/100234/etravel.pdf`. */
  readonly storedPath: StorageKey;
}

export interface UploadAccepted {
  readonly ok: true;
  /** The expected text fields that were sent, as sent (decode them with the request schema). */
  readonly fields: Readonly<Record<string, string>>;
  readonly file: UploadedFile;
}

/** Why an upload was turned away; a user's mistake, answered with `status` and `message`. */
export interface UploadRefusal {
  readonly ok: false;
  readonly status: 400 | 413 | 415;
  readonly message: string;
  /** The form field at fault, when there is one. */
  readonly field?: string;
}

export type UploadResult = UploadAccepted | UploadRefusal;
