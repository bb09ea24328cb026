import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, readdir, realpath, rename, rm, rmdir, stat, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { storageKey, type DocumentStorage, type StagedDocument, type StorageKey, type StoredDocument } from "./storage.ts";

export interface LocalDiskStorageOptions {
  /** The folder every document lives under (by default `<DATA_DIR>/uploads`); created if missing. */
  readonly root: string;
  /** Staged files older than this are left over from a crash and removed at start. Default: 1 hour. */
  readonly staleStagingMs?: number;
}

/** Keys never start with a dot, so no key can name this folder. */
const STAGING_FOLDER = ".staging";
/** Staging entries being erased: removed at start whatever their age. */
const ERASING = "erase-";
const MAX_NAME_ATTEMPTS = 1000;
const { O_WRONLY, O_RDONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

const errorCode = (error: unknown): string | undefined =>
  error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;

const writeAll = async (handle: FileHandle, chunk: Buffer): Promise<void> => {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
};

const toBuffer = (chunk: unknown): Buffer => {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string") return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError("storage content must be bytes");
};

/** So a rename survives a power cut, the folder entry has to reach the disk too. */
const syncFolder = async (folder: string): Promise<void> => {
  const handle = await open(folder, O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

/** `visa.pdf` → `visa-1.pdf`, `visa-2.pdf` …; the extension stays last so the type is kept. */
const candidateName = (fileName: string, attempt: number): string => {
  if (attempt === 0) return fileName;
  const dot = fileName.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ""];
  return `${stem}-${attempt}${extension}`;
};

/**
 * Documents as files under one root folder. Nothing can be read or written outside it: keys are
 * checked segments (`storageKey`), every resolved path is checked to start with the root, any
 * symlink on the way is refused (the folder's real path must be the path itself, and the file is
 * opened with O_NOFOLLOW), and a new file is written to staging, synced, then renamed into place
 * under a name reserved with O_EXCL, so a reader never sees half a document and nothing is
 * overwritten.
 */
export const createLocalDiskStorage = async (options: LocalDiskStorageOptions): Promise<DocumentStorage> => {
  await mkdir(options.root, { recursive: true, mode: 0o750 });
  const root = await realpath(options.root);
  const stagingFolder = path.join(root, STAGING_FOLDER);
  await mkdir(stagingFolder, { recursive: true, mode: 0o700 });
  await removeStaleStaging(stagingFolder, options.staleStagingMs ?? 60 * 60 * 1000);

  const pathOf = (key: StorageKey): string => {
    const full = path.resolve(root, ...key.split("/"));
    // Unreachable for a key made by storageKey; kept so a forged key cannot become a way out.
    if (!full.startsWith(root + path.sep)) throw new Error(`storage key resolves outside the root: ${key}`);
    return full;
  };

  /** True when no part of the folder below the root is a symlink (or missing). */
  const isPlainFolder = async (folder: string): Promise<boolean> => {
    try {
      return (await realpath(folder)) === folder;
    } catch (error) {
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return false;
      throw error;
    }
  };

  /** Opens an existing regular file for reading, never through a symlink. */
  const openExisting = async (storedPath: string): Promise<FileHandle | undefined> => {
    const key = storageKey(storedPath);
    if (key === undefined) return undefined;
    const full = pathOf(key);
    if (!(await isPlainFolder(path.dirname(full)))) return undefined;
    let handle: FileHandle;
    try {
      // O_NONBLOCK: a FIFO planted under the root must not hang the request.
      handle = await open(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ELOOP" || code === "ENOTDIR" || code === "EISDIR") return undefined;
      throw error;
    }
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      return undefined;
    }
    return handle;
  };

  const stage = async (content: Readable | Buffer): Promise<StagedDocument> => {
    // The content may fail before the first await below is over; the loop reading it reports it.
    if (!Buffer.isBuffer(content)) content.on("error", () => undefined);
    const tempPath = path.join(stagingFolder, `${randomUUID()}.part`);
    const handle = await open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o640);
    let sizeBytes = 0;
    try {
      if (Buffer.isBuffer(content)) {
        await writeAll(handle, content);
        sizeBytes = content.length;
      } else {
        for await (const chunk of content) {
          const bytes = toBuffer(chunk);
          await writeAll(handle, bytes);
          sizeBytes += bytes.length;
        }
      }
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(tempPath, { force: true });
      throw error;
    }
    await handle.close();

    let state: "staged" | "committing" | "committed" | "discarded" = "staged";
    return {
      sizeBytes,
      commit: async (key) => {
        if (state !== "staged") throw new Error(`a staged document cannot be committed when ${state}`);
        state = "committing";
        try {
          const stored = await moveIntoPlace(tempPath, key, sizeBytes);
          state = "committed";
          return stored;
        } catch (error) {
          state = "staged";
          throw error;
        }
      },
      discard: async () => {
        if (state === "committed" || state === "discarded") return;
        state = "discarded";
        await rm(tempPath, { force: true });
      },
    };
  };

  const moveIntoPlace = async (tempPath: string, key: StorageKey, sizeBytes: number): Promise<StoredDocument> => {
    const target = pathOf(key);
    const folder = path.dirname(target);
    await mkdir(folder, { recursive: true, mode: 0o750 });
    if (!(await isPlainFolder(folder))) throw new Error(`storage folder for ${key} is not a plain folder under the root`);
    const folderSegments = key.split("/").slice(0, -1);

    let recreated = 0;
    for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
      const name = candidateName(path.basename(target), attempt);
      const storedPath = storageKey(...folderSegments, name);
      if (storedPath === undefined) break;
      const candidate = path.join(folder, name);
      // Reserve the name atomically (O_EXCL fails if anything, even a dangling symlink, is there)...
      let reservation: FileHandle;
      try {
        reservation = await open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o640);
      } catch (error) {
        if (errorCode(error) === "EEXIST") continue;
        // The folder went between mkdir and open: a refused upload's cleanup removed it while it
        // was empty (see `remove`). Made again, the same name is tried again.
        if (errorCode(error) === "ENOENT" && recreated++ < 3) {
          await mkdir(folder, { recursive: true, mode: 0o750 });
          attempt--;
          continue;
        }
        throw error;
      }
      await reservation.close();
      // ...then replace our own empty placeholder with the complete file in one step.
      try {
        await rename(tempPath, candidate);
      } catch (error) {
        await rm(candidate, { force: true });
        throw error;
      }
      await syncFolder(folder);
      return { storedPath, sizeBytes };
    }
    throw new Error(`no free name for ${key} after ${MAX_NAME_ATTEMPTS} attempts`);
  };

  return {
    stage,
    put: async (key, content) => {
      const staged = await stage(content);
      try {
        return await staged.commit(key);
      } catch (error) {
        await staged.discard();
        throw error;
      }
    },
    open: async (storedPath) => (await openExisting(storedPath))?.createReadStream(),
    exists: async (storedPath) => {
      const handle = await openExisting(storedPath);
      await handle?.close();
      return handle !== undefined;
    },
    remove: async (storedPath) => {
      const key = storageKey(storedPath);
      if (key === undefined) return;
      const full = pathOf(key);
      if (!(await isPlainFolder(path.dirname(full)))) return;
      await unlink(full).catch((error: unknown) => {
        if (errorCode(error) !== "ENOENT") throw error;
      });
      // A folder the removed file leaves empty goes too (a refused upload to a made-up order id
      // must leave nothing behind). An upload landing in it at the same moment makes rmdir fail
      // with ENOTEMPTY, which keeps it; only the root's own children's parents are considered.
      const folder = path.dirname(full);
      if (folder !== root && path.dirname(folder) !== root) {
        await rmdir(folder).catch((error: unknown) => {
          if (!["ENOTEMPTY", "EEXIST", "ENOENT"].includes(errorCode(error) ?? "")) throw error;
        });
      }
    },
    removeFolder: async (folder) => {
      const full = pathOf(folder);
      // Missing, or reached through a symlink: nothing of ours to remove, and nothing outside the root is followed.
      if (!(await isPlainFolder(full))) return;
      // Renamed into staging first: a crash midway leaves nothing under the order's key, and the
      // stale staging sweep (or the next erase of the same order) finishes the removal.
      const doomed = path.join(stagingFolder, `${ERASING}${randomUUID()}`);
      try {
        await rename(full, doomed);
      } catch (error) {
        if (errorCode(error) === "ENOENT") return;
        throw error;
      }
      await syncFolder(path.dirname(full));
      await rm(doomed, { recursive: true, force: true });
    },
  };
};

const removeStaleStaging = async (stagingFolder: string, staleMs: number): Promise<void> => {
  const cutoff = Date.now() - staleMs;
  for (const name of await readdir(stagingFolder)) {
    const file = path.join(stagingFolder, name);
    const info = await stat(file).catch(() => undefined);
    if (info !== undefined && (name.startsWith(ERASING) || info.mtimeMs < cutoff)) await rm(file, { force: true, recursive: true });
  }
};
