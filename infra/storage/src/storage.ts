import type { Readable } from "node:stream";

/**
 * A place for stored documents, relative to the storage's root: `docs/100234/etravel.pdf`.
 * Only `storageKey` makes one, so every key that reaches an adapter has already been checked to
 * be a plain relative path (no `..`, no absolute path, no hidden or empty segment).
 */
export type StorageKey = string & { readonly __storageKey: true };

/** Where a document ended up (the key, with a `-1`, `-2` … suffix if the name was taken). */
export interface StoredDocument {
  readonly storedPath: StorageKey;
  readonly sizeBytes: number;
}

/**
 * Content written to the storage's private staging area but not yet visible under any key. Uploads
 * need it because the form field that decides the key (the order id) may arrive after the file.
 */
export interface StagedDocument {
  readonly sizeBytes: number;
  /** Moves the content under `key`, keeping both if the name is taken. Once only. */
  commit(key: StorageKey): Promise<StoredDocument>;
  /** Forgets the content; safe to call more than once, and after a commit (then a no-op). */
  discard(): Promise<void>;
}

/** The storage port (DESIGN §6): local disk by default; an object store could sit behind it. */
export interface DocumentStorage {
  /** Stores the whole content under `key` (or a suffixed name), never overwriting a document. */
  put(key: StorageKey, content: Readable | Buffer): Promise<StoredDocument>;
  /**
   * Writes the content to staging. If `content` fails (the caller destroys it, e.g. on a size
   * limit), this rejects with that error and nothing is left behind.
   */
  stage(content: Readable | Buffer): Promise<StagedDocument>;
  /** The document's bytes, or undefined when there is none at that path (or the path is not valid). */
  open(storedPath: string): Promise<Readable | undefined>;
  exists(storedPath: string): Promise<boolean>;
  /** Deletes a document nothing refers to (an upload whose command was refused); no-op when absent. */
  remove(storedPath: string): Promise<void>;
  /**
   * Deletes a folder and everything in it (an erased order's documents and packs); no-op when
   * absent. The content is gone once this resolves, even if the process dies right after.
   */
  removeFolder(folder: StorageKey): Promise<void>;
}

// A conservative segment: what a file or folder may be called on any common filesystem and in a
// URL path without surprises. Names from users go through `safeFileName` first.
const MAX_SEGMENT_BYTES = 200;
const FORBIDDEN_IN_SEGMENT = /[/\\\p{Cc}\p{Cf}:*?"<>|]/u;

const isSafeSegment = (segment: string): boolean =>
  segment.length > 0 &&
  !segment.startsWith(".") &&
  !segment.endsWith(".") &&
  segment.trim() === segment &&
  !FORBIDDEN_IN_SEGMENT.test(segment) &&
  Buffer.byteLength(segment, "utf8") <= MAX_SEGMENT_BYTES;

/**
 * Checks and joins path segments into a key, or reads a stored path back into one. Undefined
 * when any segment could step outside the root or hide (leading dot: the staging area is one).
 */
export const storageKey = (...segments: readonly string[]): StorageKey | undefined => {
  const parts = segments.flatMap((segment) => segment.split("/"));
  if (parts.length === 0 || parts.length > 16 || !parts.every(isSafeSegment)) return undefined;
  return parts.join("/") as StorageKey;
};
