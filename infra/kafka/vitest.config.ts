import { defineConfig } from "vitest/config";

// The tests start a real Kafka broker (a JVM, a few seconds); no database.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
