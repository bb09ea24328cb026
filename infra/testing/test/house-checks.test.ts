import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";
import { afterEach, describe, expect, it } from "vitest";

/*
 * The checks that `npm run check` runs over the whole tree pass there, which says nothing unless
 * they can fail: each is run here, with the repository's own configuration, on a small tree made
 * for the test that breaks its rule, and must refuse it (ADR 0030). The trees are written to a
 * temporary folder: one committed with the violation would fail the real check.
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A throwaway tree holding `files` (path → text). */
const tree = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "etd-house-"));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
};

const run = (command: string, args: string[], cwd: string) => {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe("no import cycles (dpdm with dpdm.config.json, `npm run cycles`)", () => {
  const cycles = (cwd: string) => run(bin("dpdm"), ["--config", join(ROOT, "dpdm.config.json")], cwd);

  it("refuses two modules that import each other, types only as they are", () => {
    const root = tree({
      "services/api/src/deps.ts": 'import type { Counter } from "./counter.ts";\nexport interface Deps { readonly counter: Counter }\n',
      "services/api/src/counter.ts": 'import type { Deps } from "./deps.ts";\nexport interface Counter { count(deps: Deps): number }\n',
    });
    const { status, output } = cycles(root);
    expect(status).toBe(1);
    expect(output).toMatch(/services\/api\/src\/(deps|counter)\.ts -> services\/api\/src\/(deps|counter)\.ts/);
  });

  it("passes the same modules once the shared piece stands below both", () => {
    const root = tree({
      "services/api/src/deps.ts": 'import type { Counter } from "./counter.ts";\nexport interface Deps { readonly counter: Counter }\n',
      "services/api/src/counter.ts": "export interface Counter { count(): number }\n",
    });
    expect(cycles(root)).toMatchObject({ status: 0 });
  });
});

describe("sealed web features (eslint.config.js, `npm run lint`)", { timeout: 120_000 }, () => {
  // The repository's lint config, on files that do not exist: so without the type-aware parsing
  // the rest of the config needs (as contract/test/import-boundaries.test.ts does); the boundary
  // rules read import statements only.
  const eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });
  const lint = async (path: string, code: string): Promise<Linter.LintMessage[]> => {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
    return result?.messages ?? [];
  };
  const SEALED = /A feature imports no other feature/;

  it("refuses a feature importing another feature's module", async () => {
    const messages = await lint("web/src/features/admin/components/fixture.tsx", 'import { twoFactorStatusQuery } from "../../two-factor/api/two-factor.ts";\nexport const query = twoFactorStatusQuery;\n');
    expect(messages.map((message) => message.message)).toEqual([expect.stringMatching(SEALED)]);
  });

  it("refuses it through import() as well", async () => {
    const messages = await lint("web/src/features/shell/components/fixture.tsx", 'export const page = () => import("../../orders/components/order-page.tsx");\n');
    expect(messages.map((message) => message.message)).toEqual([expect.stringMatching(SEALED)]);
  });

  it("refuses lib/ importing a feature", async () => {
    const messages = await lint("web/src/lib/fixture.ts", 'import { QUEUE_SCREENS } from "../features/queues/queue-screens.ts";\nexport const screens = QUEUE_SCREENS;\n');
    expect(messages.map((message) => message.message)).toEqual([expect.stringMatching(/lib\/ and components\/ are shared by the features/)]);
  });

  it("lets a feature import its own modules, lib/ and components/", async () => {
    const code = [
      'import { useValidatedForm } from "../../../lib/use-validated-form.ts";',
      'import { AdminPage } from "../../../components/ui/admin-page.tsx";',
      'import { resetTwoFactor } from "../api/reset-two-factor.ts";',
      "export const parts = [useValidatedForm, AdminPage, resetTwoFactor];",
      'export const later = () => import("./team-member-form.tsx");',
      "",
    ].join("\n");
    expect(await lint("web/src/features/admin/components/fixture.tsx", code)).toEqual([]);
  });
});

describe("no unused files or exports (knip with knip.jsonc, `npm run knip`)", () => {
  const knip = (cwd: string) => run(bin("knip"), ["--no-progress", "--no-config-hints", "--config", join(ROOT, "knip.jsonc")], cwd);
  const webApp = (lib: Record<string, string>) =>
    tree({
      "package.json": JSON.stringify({ name: "fixture", private: true, type: "module", workspaces: ["web"] }),
      "web/package.json": JSON.stringify({ name: "@etd/web", private: true, type: "module" }),
      // An entry by knip.jsonc's own patterns (the app's index.html would need Vite installed here).
      "web/scripts/show-words.ts": 'import { shown } from "../src/lib/words.ts";\nconsole.log(shown);\n',
      ...lib,
    });

  it("refuses a file nothing imports and an export nothing uses", () => {
    const root = webApp({
      "web/src/lib/words.ts": 'export const shown = "shown";\nexport const forgotten = "forgotten";\n',
      "web/src/lib/orphan.ts": 'export const orphan = "orphan";\n',
    });
    const { status, output } = knip(root);
    expect(status).toBe(1);
    expect(output).toMatch(/Unused files[^\n]*\n\s*web\/src\/lib\/orphan\.ts/);
    expect(output).toMatch(/Unused exports[^\n]*\n\s*forgotten\s+web\/src\/lib\/words\.ts/);
  });

  it("passes the same app without them", () => {
    const root = webApp({ "web/src/lib/words.ts": 'export const shown = "shown";\n' });
    expect(knip(root)).toMatchObject({ status: 0 });
  });
});
