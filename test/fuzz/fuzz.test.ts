/**
 * Seeded fuzzing against the real server and sandbox on loopback: random requests at /mcp and
 * random tool calls generated from every tool's schema. `npm test` runs a quick pass;
 * `npm run bench:fuzz` runs this same file with FUZZ_HTTP_CASES / FUZZ_TOOL_CASES of 10,000 and
 * FUZZ_REPORT set to a file for the report. FUZZ_SEED replays a run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messagesOf, post } from "../helpers/http.js";
import { type FuzzReport, runFuzz } from "./run.js";
import { type FuzzTarget, startFuzzTarget } from "./target.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20_241_121);
const HTTP_CASES = Number(process.env.FUZZ_HTTP_CASES ?? 300);
const TOOL_CASES = Number(process.env.FUZZ_TOOL_CASES ?? 300);
/** Generous: a case takes a few milliseconds; the bound only stops a run that hangs. */
const RUN_TIMEOUT_MS = 60_000 + 100 * (HTTP_CASES + TOOL_CASES);

let target: FuzzTarget;
let report: FuzzReport;

beforeAll(async () => {
  target = await startFuzzTarget();
  const started = performance.now();
  report = await runFuzz(target, { seed: SEED, httpCases: HTTP_CASES, toolCases: TOOL_CASES });
  if (process.env.FUZZ_REPORT) {
    mkdirSync(dirname(process.env.FUZZ_REPORT), { recursive: true });
    const durationMs = performance.now() - started;
    writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ ...report, durationMs }, null, 2));
  }
}, RUN_TIMEOUT_MS);
afterAll(() => target?.close());

describe(`fuzzing (seed ${SEED})`, () => {
  it("answers every random request without a 5xx and keeps the HTTP rules", () => {
    expect(report.http.failure).toBeNull();
    expect(report.http.cases).toBe(HTTP_CASES);
    expect(report.serverErrors).toBe(0);
    // The generator reaches past the door: tool calls and lists get answered, not only refused.
    expect(report.http.statuses["200"]).toBeGreaterThan(0);
  });

  it("accepts every valid random tool call and refuses every invalid one by path", () => {
    expect(report.tools.failure).toBeNull();
    expect(report.tools.cases).toBe(TOOL_CASES);
    expect(report.tools.valid).toBeGreaterThan(0);
    expect(report.tools.invalid).toBeGreaterThan(0);
    expect(report.tools.tasksCreated).toBeGreaterThan(0);
  });

  it("never crashes: no unhandled rejection, no uncaught exception, no error log", () => {
    expect(report.crashes).toEqual([]);
  });
});

describe("regressions found by fuzzing", () => {
  it("malformed params get -32602 Invalid params naming the field, not -32603 Internal error", async () => {
    const bodies = [
      { jsonrpc: "2.0", id: 1, method: "tools/call" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: 5 } },
      { jsonrpc: "2.0", id: 3, method: "initialize" },
    ];
    const answers = [];
    for (const body of bodies) {
      const response = await post(target.stack.mcpUrl, { key: target.stack.keys[0], body });
      expect(response.status).toBe(200);
      answers.push(...(await messagesOf(response)));
    }
    expect(answers.map((a) => (a.error as { code: number }).code)).toEqual([
      -32602, -32602, -32602,
    ]);
    const messages = answers.map((a) => (a.error as { message: string }).message);
    expect(messages[0]).toMatch(/Invalid tools\/call request: params: /);
    expect(messages[1]).toMatch(/Invalid tools\/call request: params\.name: .*string/);
    expect(messages[2]).toMatch(/Invalid initialize request: params: /);
  });
});
