import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

/*
 * DATA_DIR holds the embedded database (password hashes, the per-order keys that make erasure
 * possible), uploaded documents and the session secret: only the account running the API may
 * read it (issue 9 item 10). Directories are 0700 and files 0600.
 *
 * Two mechanisms, because neither is enough alone:
 * - the process umask (0077, set by `npm start` before anything is created) makes every file and
 *   directory created later owner-only, whoever creates it;
 * - `restrictToOwner` walks the directory: installs made before this rule hold 0666 files, and
 *   PGlite sets the modes of the data directory it unpacks on first start itself (0666), past the
 *   umask, so `npm start` walks it again once the database is open.
 */

export const OWNER_ONLY_UMASK = 0o077;
export const DIRECTORY_MODE = 0o700;
export const FILE_MODE = 0o600;

export class DataDirError extends Error {}

/**
 * Creates `dir` if needed and sets it and everything under it to owner-only. Symbolic links are
 * neither followed nor changed: what they point to is not ours to change. Refuses a shared
 * directory (sticky bit, like /tmp): DATA_DIR must be a directory of its own.
 */
export const restrictToOwner = async (dir: string): Promise<void> => {
  await mkdir(dir, { recursive: true, mode: DIRECTORY_MODE });
  const top = await lstat(dir);
  if (!top.isDirectory()) throw new DataDirError(`DATA_DIR (${dir}) is not a directory.`);
  if (top.mode & 0o1000) throw new DataDirError(`DATA_DIR (${dir}) is a shared directory (sticky bit): give the API a directory of its own.`);
  await restrictEntry(dir, top.isDirectory());
};

const restrictEntry = async (entry: string, isDirectory: boolean): Promise<void> => {
  try {
    await chmod(entry, isDirectory ? DIRECTORY_MODE : FILE_MODE);
  } catch (error) {
    // A file that vanished meanwhile (the database removes temporary files) needs nothing.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new DataDirError(`Cannot make ${entry} readable by its owner only: ${(error as Error).message}`);
  }
  if (!isDirectory) return;
  let children;
  try {
    children = await readdir(entry, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const child of children) {
    if (child.isSymbolicLink()) continue;
    if (child.isDirectory() || child.isFile()) await restrictEntry(path.join(entry, child.name), child.isDirectory());
  }
};
