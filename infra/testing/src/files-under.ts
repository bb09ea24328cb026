import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

/** Every file (and symlink) below `folder`, as paths relative to it, sorted. */
export const filesUnder = async (folder: string): Promise<string[]> => {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(folder, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory() && !(await lstat(path.join(folder, child))).isSymbolicLink()) await walk(child);
      else found.push(child.split(path.sep).join("/"));
    }
  };
  await walk("");
  return found.sort();
};
