import { defineConfig } from "vitest/config";

// The tests start an SES emulator process and local HTTP listeners; no database.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
