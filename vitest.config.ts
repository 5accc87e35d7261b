import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Fails the run when any captured log line holds a key the tests used.
    globalSetup: ["test/helpers/log-scan.ts"],
  },
});
