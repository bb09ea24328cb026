import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

/*
 * The import boundaries (ADR 0012) as the repository's own lint config enforces them: each case
 * lints a few lines as if they were a source file at that place in the tree, and reads which
 * imports the boundary rule refuses. The web app importing server code must fail the lint.
 * The files do not exist, so the type-aware parsing the rest of the config needs is switched off;
 * the boundary rule reads import statements only.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

/** The specifiers the boundary rule refuses in `code`, linted as the file at `path`. */
const refused = async (path: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "@typescript-eslint/no-restricted-imports")
    .map((message) => /^'([^']+)'/.exec(message.message)?.[1] ?? message.message);
};

describe("import boundaries (ADR 0012)", { timeout: 120_000 }, () => {
  it("refuses server code in the web app, by package name or by relative path, types included", async () => {
    const code = [
      `import { allEndpoints } from "@etd/api";`,
      `import type { OrderEvent } from "@etd/events";`,
      `import { ordersList } from "@etd/projections";`,
      `import { handleCommand } from "@etd/write";`,
      `import { Schema } from "effect";`,
      `import { isAllowed } from "../../../../services/api/src/app.ts";`,
      `export const used = [allEndpoints, ordersList, handleCommand, Schema, isAllowed] as unknown as OrderEvent;`,
    ].join("\n");
    expect(await refused("web/src/features/queues/boundary-fixture.ts", code)).toEqual([
      "@etd/api",
      "@etd/events",
      "@etd/projections",
      "@etd/write",
      "effect",
      "../../../../services/api/src/app.ts",
    ]);
  });

  it("lets the web app import the contract, and the request schemas as types only", async () => {
    const code = [
      `import { isAllowed, QUEUE_KEYS, type QueueKey } from "@etd/contract";`,
      `import type { Body, LoginRequest } from "@etd/contract/requests";`,
      `export const used: [typeof isAllowed, readonly QueueKey[], Body<typeof LoginRequest> | undefined] = [isAllowed, QUEUE_KEYS, undefined];`,
    ].join("\n");
    expect(await refused("web/src/features/queues/boundary-fixture.ts", code)).toEqual([]);
    const values = `import { LoginRequest } from "@etd/contract/requests";\nexport const used = LoginRequest;`;
    expect(await refused("web/src/features/queues/boundary-fixture.ts", values)).toEqual(["@etd/contract/requests"]);
  });

  it("keeps the event catalogue free of anything of ours", async () => {
    const code = `import { ROLES } from "@etd/contract";\nimport { Order } from "@etd/write";\nexport const used = [ROLES, Order];`;
    expect(await refused("events/src/orders/boundary-fixture.ts", code)).toEqual(["@etd/contract", "@etd/write"]);
  });

  it("keeps the contract's run-time entry to plain data, and the contract off every layer but events", async () => {
    const entry = `import { Schema } from "effect";\nimport { OrderId } from "@etd/events";\nimport { ROLES } from "@etd/events/vocabulary";\nexport const used = [Schema, OrderId, ROLES];`;
    expect(await refused("contract/src/boundary-fixture.ts", entry)).toEqual(["effect", "@etd/events"]);
    const requests = `import { Schema } from "effect";\nimport { OrderId } from "@etd/events";\nimport { ordersList } from "@etd/projections";\nexport const used = [Schema, OrderId, ordersList];`;
    expect(await refused("contract/src/requests/boundary-fixture.ts", requests)).toEqual(["@etd/projections"]);
  });

  it("lets write and projections stand on events and the store only, never on the API", async () => {
    const code = `import { readDb } from "@etd/api";\nimport { ordersList } from "@etd/projections";\nimport { decodeEvent } from "@etd/events";\nexport const used = [readDb, ordersList, decodeEvent];`;
    expect(await refused("services/write/src/orders/boundary-fixture.ts", code)).toEqual(["@etd/api", "@etd/projections"]);
    const read = `import { readDb } from "@etd/api";\nimport { decideOrder } from "@etd/write";\nimport { QUEUE_KEYS } from "@etd/contract";\nimport type { Query } from "@etd/event-store";\nexport const used: [unknown, unknown, unknown, Query | undefined] = [readDb, decideOrder, QUEUE_KEYS, undefined];`;
    expect(await refused("projections/src/queue/boundary-fixture.ts", read)).toEqual(["@etd/api", "@etd/write"]);
  });
});
