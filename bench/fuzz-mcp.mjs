// Fuzzing at scale. Run: npm run bench:fuzz (builds dist/ first, like every benchmark).
// Runs test/fuzz/fuzz.test.ts (the generators and rules of the quick run in `npm test`) in a vitest
// process of its own with 10,000 random requests at /mcp and 10,000 random tool calls, then prints
// the report as Markdown: cases, crashes, 5xx answers to client input, duration, the machine.
// FUZZ_SEED, FUZZ_HTTP_CASES and FUZZ_TOOL_CASES override the defaults. Exits 1 on any failure.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const reportFile = fileURLToPath(new URL("results/fuzz.json", import.meta.url));
const seed = process.env.FUZZ_SEED ?? String(Date.now() % 1_000_000_000);
const httpCases = process.env.FUZZ_HTTP_CASES ?? "10000";
const toolCases = process.env.FUZZ_TOOL_CASES ?? "10000";

rmSync(reportFile, { force: true });
const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const code = await new Promise((resolve) => {
  const child = spawn(process.execPath, [vitest, "run", "test/fuzz/fuzz.test.ts"], {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      FUZZ_SEED: seed,
      FUZZ_HTTP_CASES: httpCases,
      FUZZ_TOOL_CASES: toolCases,
      FUZZ_REPORT: reportFile,
    },
  });
  child.once("close", resolve);
});

const report = JSON.parse(readFileSync(reportFile, "utf8"));
const seconds = (ms) => (ms / 1000).toFixed(1);
const statuses = Object.entries(report.http.statuses)
  .map(([status, count]) => `${status}: ${count}`)
  .join(", ");
const failure = (family) => (family.failure ? `FAILED: ${family.failure}` : "none");

const rate = (family) => Math.round(family.cases / (family.durationMs / 1000));
console.log(`
machine: ${cpus()[0]?.model} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}
date: ${new Date().toISOString().slice(0, 10)}, seed ${report.seed}

| family | cases | rule broken | duration s | cases/s |
|---|---|---|---|---|
| random requests at /mcp | ${report.http.cases} | ${failure(report.http)} | ${seconds(report.http.durationMs)} | ${rate(report.http)} |
| random tool calls (${report.tools.valid} valid, ${report.tools.invalid} invalid) | ${report.tools.cases} | ${failure(report.tools)} | ${seconds(report.tools.durationMs)} | ${rate(report.tools)} |

| whole run | cases | crashes | 5xx to client input | duration s |
|---|---|---|---|---|
| seed ${report.seed} | ${report.http.cases + report.tools.cases} | ${report.crashes.length} | ${report.serverErrors} | ${seconds(report.durationMs)} |

HTTP statuses: ${statuses}
tasks created by valid collections: ${report.tools.tasksCreated} (one per call); callbacks received on loopback: ${report.callbacksReceived}
${report.crashes.map((crash) => `crash: ${crash}`).join("\n")}`);
process.exit(code === 0 && report.crashes.length === 0 ? 0 : 1);
