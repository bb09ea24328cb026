import { defineConfig } from "vitest/config";

// The tests start Debian's Chromium; no database.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
