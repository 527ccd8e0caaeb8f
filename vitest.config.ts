import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts"],
    globalSetup: ["tests/setup/template-database.ts", "tests/setup/test-keys.ts"],
    setupFiles: ["tests/setup/database.ts"],
    env: {
      APP_URL: "https://initlink.test",
      INIT_INTERVAL_MS: "5000",
      INIT_LIFETIME_SECONDS: "900",
      // Suites sign up, create inits, approve them into new projects and link from one address as
      // fast as they can; tests/api/limits/rate-limit.test.ts and tests/api/projects/new-project.test.ts
      // set their own, low limits.
      CREATE_INIT_PER_MINUTE: "100000",
      SIGN_IN_PER_ADDRESS_PER_MINUTE: "100000",
      SIGN_IN_FAILURES_PER_15_MINUTES: "100000",
      LINKS_PER_TOKEN_PER_MINUTE: "100000",
      PICKUPS_PER_INIT_PER_MINUTE: "100000",
      INTROSPECTIONS_PER_TOKEN_PER_MINUTE: "100000",
      INTROSPECTIONS_PER_RESOURCE_SERVER_PER_MINUTE: "100000",
      NEW_PROJECTS_PER_ACCOUNT_PER_HOUR: "100000",
      NEW_PROJECTS_PER_ADDRESS_PER_HOUR: "100000",
      PROJECTS_PER_ACCOUNT: "100000",
      // Tests wait for a key as long as it takes (no 503 key_not_ready) and generate no spare
      // keys; tests/api/projects/project-keys-*.test.ts set their own.
      PROJECT_KEY_WAIT_MS: "60000",
      PROJECT_KEY_RESERVE: "0",
      // Test-only settings (refused unless NODE_ENV=test, which Vitest sets): scrypt at a low
      // cost (the full cost: tests/api/auth/password-hashes.test.ts, accounts.test.ts) and project
      // keys from pre-generated pairs (the queue's own timing: tests/api/projects/project-keys-*.test.ts).
      TEST_PASSWORD_COST: "low",
      TEST_PROJECT_KEYS_FILE: path.resolve(import.meta.dirname, ".cache", "test-keys", "rsa-4096.json"),
      // A fixed test key (32 bytes of 0x2a); never a real one.
      MASTER_KEY: "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=",
    },
    pool: "forks",
    // Files run side by side, each on a database of its own (tests/setup/database.ts). Vitest's
    // default (cores − 1) runs one at a time here, while many files mostly wait: held requests,
    // timers, the key queue's real generations.
    maxWorkers: 3,
    // A test may wait for an RSA-4096 key generated past the pre-generated ones: its generation
    // time is random (0.5 s to 5 s on one idle core here), and files share the cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
