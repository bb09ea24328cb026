import { describe, expect, it } from "vitest";
import { entryScript, initialChunks } from "../bench/web.bench.ts";

describe("P6: the initial JavaScript is the entry and its static imports", () => {
  const manifest = {
    "index.html": { file: "assets/index-a.js", isEntry: true, imports: ["_vendor-b.js"], dynamicImports: ["src/lazy.tsx"] },
    "_vendor-b.js": { file: "assets/vendor-b.js", imports: ["_shared-c.js"] },
    "_shared-c.js": { file: "assets/shared-c.js", imports: ["_vendor-b.js"] },
    "src/lazy.tsx": { file: "assets/lazy-d.js", isDynamicEntry: true, imports: ["_shared-c.js"] },
  };

  it("follows static imports transitively, once each, and leaves lazily loaded chunks out", () => {
    expect(initialChunks(manifest, "assets/index-a.js")).toEqual(["assets/index-a.js", "assets/vendor-b.js", "assets/shared-c.js"]);
  });

  it("finds the entry module that index.html starts", () => {
    expect(entryScript('<script type="module" crossorigin src="/assets/index-a.js"></script>')).toBe("assets/index-a.js");
    expect(() => entryScript("<html></html>")).toThrow(/no module script/);
  });
});
