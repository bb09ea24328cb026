import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalDiskStorage } from "../src/local-disk-storage.ts";
import { storageKey, type DocumentStorage, type StorageKey } from "../src/storage.ts";
import { filesUnder } from "@etd/infra/files-under";

const key = (...segments: string[]): StorageKey => {
  const made = storageKey(...segments);
  if (made === undefined) throw new Error(`not a key: ${segments.join("/")}`);
  return made;
};

describe("storage keys", () => {
  it("joins plain segments", () => {
    expect(storageKey("docs", "100234", "visa.pdf")).toBe("docs/100234/visa.pdf");
    expect(storageKey("docs/100234/visa.pdf")).toBe("docs/100234/visa.pdf");
  });

  it.each([
    ["a parent step", ["docs", "..", "x.pdf"]],
    ["a parent step inside a path", ["docs/../../x.pdf"]],
    ["an absolute path", ["/etc/passwd"]],
    ["an empty segment", ["docs//x.pdf"]],
    ["nothing", [""]],
    ["a hidden name (the staging folder)", [".staging", "x.part"]],
    ["a backslash", ["docs\\..\\x.pdf"]],
    ["a NUL", ["docs", "x\u0000.pdf"]],
    ["a drive letter", ["C:", "x.pdf"]],
    ["a trailing dot", ["docs", "x."]],
    ["a name too long for a filesystem", ["docs", `${"a".repeat(250)}.pdf`]],
  ])("refuses %s", (_case, segments) => {
    expect(storageKey(...segments)).toBeUndefined();
  });
});

describe("local-disk storage", () => {
  let parent: string;
  let root: string;
  let storage: DocumentStorage;

  beforeEach(async () => {
    parent = await mkdtemp(path.join(tmpdir(), "etd-storage-"));
    root = path.join(parent, "uploads");
    storage = await createLocalDiskStorage({ root });
  });
  afterEach(async () => rm(parent, { recursive: true, force: true }));

  it("stores a document and gives it back, from a buffer or a stream", async () => {
    const fromBuffer = await storage.put(key("docs", "100234", "a.pdf"), Buffer.from("%PDF-a"));
    const fromStream = await storage.put(key("docs", "100234", "b.pdf"), Readable.from([Buffer.from("%PDF-"), Buffer.from("b")]));

    expect(fromBuffer).toEqual({ storedPath: "docs/100234/a.pdf", sizeBytes: 6 });
    expect(fromStream).toEqual({ storedPath: "docs/100234/b.pdf", sizeBytes: 6 });
    expect(await text((await storage.open("docs/100234/b.pdf"))!)).toBe("%PDF-b");
    expect(await storage.exists("docs/100234/a.pdf")).toBe(true);
    expect(await storage.exists("docs/100234/c.pdf")).toBe(false);
    expect(await storage.open("docs/100234/c.pdf")).toBeUndefined();
  });

  it("removing an order's last file removes its folder; a folder with other files stays; an upload racing the cleanup still lands", async () => {
    const first = await storage.put(key("docs", "7", "a.pdf"), Buffer.from("%PDF-a"));
    const second = await storage.put(key("docs", "7", "b.pdf"), Buffer.from("%PDF-b"));
    await storage.remove(first.storedPath);
    expect(await readdir(path.join(root, "docs", "7"))).toEqual(["b.pdf"]);
    await storage.remove(second.storedPath);
    expect(existsSync(path.join(root, "docs", "7"))).toBe(false);
    expect(existsSync(path.join(root, "docs"))).toBe(true);

    // Puts and removes of one order's folder at once: every put ends stored, none fails on a folder
    // another remove took away.
    const racing = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const stored = await storage.put(key("docs", "8", `f${i}.pdf`), Buffer.from(`%PDF-${i}`));
        if (i % 2 === 0) await storage.remove(stored.storedPath);
        return stored;
      }),
    );
    const kept = racing.filter((_, i) => i % 2 === 1).map((stored) => path.basename(stored.storedPath));
    expect((await readdir(path.join(root, "docs", "8"))).sort()).toEqual(kept.sort());
  });

  it("never overwrites: a taken name gets -1, -2 … before the extension", async () => {
    const stored = [];
    for (const content of ["first", "second", "third"]) stored.push(await storage.put(key("docs", "1", "visa.pdf"), Buffer.from(content)));

    expect(stored.map((s) => s.storedPath)).toEqual(["docs/1/visa.pdf", "docs/1/visa-1.pdf", "docs/1/visa-2.pdf"]);
    expect(await readFile(path.join(root, "docs", "1", "visa.pdf"), "utf8")).toBe("first");
    expect(await readFile(path.join(root, "docs", "1", "visa-2.pdf"), "utf8")).toBe("third");
  });

  it("keeps every document when many with one name arrive at once", async () => {
    const stored = await Promise.all(
      Array.from({ length: 20 }, (_, i) => storage.put(key("docs", "2", "same.pdf"), Buffer.from(`copy ${i}`))),
    );

    expect(new Set(stored.map((s) => s.storedPath)).size).toBe(20);
    expect((await filesUnder(path.join(root, "docs", "2"))).length).toBe(20);
  });

  it.each(["../outside.txt", "/etc/passwd", "docs/../../outside.txt", ".staging/x.part", "docs\\..\\..\\x", ""])(
    "reads nothing at %j",
    async (storedPath) => {
      await writeFile(path.join(parent, "outside.txt"), "secret");
      expect(await storage.open(storedPath)).toBeUndefined();
      expect(await storage.exists(storedPath)).toBe(false);
    },
  );

  it("does not follow a symlinked folder out of the root, for writing or reading", async () => {
    const outside = path.join(parent, "outside");
    await mkdir(outside);
    await writeFile(path.join(outside, "secret.pdf"), "secret");
    await mkdir(path.join(root, "docs"), { recursive: true });
    await symlink(outside, path.join(root, "docs", "999999"));

    await expect(storage.put(key("docs", "999999", "x.pdf"), Buffer.from("%PDF-x"))).rejects.toThrow(/not a plain folder/);
    expect(await storage.open("docs/999999/secret.pdf")).toBeUndefined();
    expect(await storage.exists("docs/999999/secret.pdf")).toBe(false);
    expect(await filesUnder(outside)).toEqual(["secret.pdf"]);
    expect(await filesUnder(path.join(root, ".staging"))).toEqual([]);
  });

  it("does not follow a symlinked file out of the root, and does not write through one", async () => {
    const secret = path.join(parent, "secret.txt");
    await writeFile(secret, "secret");
    await mkdir(path.join(root, "docs", "3"), { recursive: true });
    await symlink(secret, path.join(root, "docs", "3", "visa.pdf"));

    expect(await storage.open("docs/3/visa.pdf")).toBeUndefined();
    expect(await storage.exists("docs/3/visa.pdf")).toBe(false);
    // The symlink's name is taken, so the new document goes beside it; the target is untouched.
    expect((await storage.put(key("docs", "3", "visa.pdf"), Buffer.from("%PDF-new"))).storedPath).toBe("docs/3/visa-1.pdf");
    expect(await readFile(secret, "utf8")).toBe("secret");
  });

  it("stages out of sight, and places only on commit", async () => {
    const staged = await storage.stage(Buffer.from("%PDF-staged"));

    expect(staged.sizeBytes).toBe(11);
    expect(await filesUnder(root)).toHaveLength(1);
    expect((await filesUnder(root))[0]).toMatch(/^\.staging\/.+\.part$/);

    expect(await staged.commit(key("docs", "4", "s.pdf"))).toEqual({ storedPath: "docs/4/s.pdf", sizeBytes: 11 });
    await staged.discard();
    expect(await filesUnder(root)).toEqual(["docs/4/s.pdf"]);
    await expect(staged.commit(key("docs", "4", "again.pdf"))).rejects.toThrow();
  });

  it("leaves nothing behind when staged content is discarded or its stream fails", async () => {
    const staged = await storage.stage(Buffer.from("%PDF-gone"));
    await staged.discard();
    await staged.discard();

    const failing = new Readable({ read() {} });
    const staging = storage.stage(failing);
    failing.push(Buffer.alloc(1024));
    setImmediate(() => failing.destroy(new Error("client went away")));

    await expect(staging).rejects.toThrow("client went away");
    expect(await filesUnder(root)).toEqual([]);
  });

  it("removes staged files left over from a crash when it starts", async () => {
    const stale = path.join(root, ".staging", "old.part");
    const fresh = path.join(root, ".staging", "fresh.part");
    await writeFile(stale, "half");
    await writeFile(fresh, "in progress");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);

    await createLocalDiskStorage({ root });

    expect(await filesUnder(path.join(root, ".staging"))).toEqual(["fresh.part"]);
  });
});
