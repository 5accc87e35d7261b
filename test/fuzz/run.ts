/**
 * One fuzzing run, shared by the quick run in `npm test` and the 10,000-case run of
 * `npm run bench:fuzz`: random requests at /mcp, then random tool calls, each family a seeded
 * fast-check property. The report counts what the interface promises never happens.
 */
import fc from "fast-check";
import { request } from "undici";
import { type RawRequest, rawRequests } from "./http-cases.js";
import { checkResponse, type RawResponse } from "./http-rules.js";
import type { FuzzTarget } from "./target.js";
import { checkToolResult, type ToolCase, toolCases } from "./tool-cases.js";

const REQUEST_TIMEOUT_MS = 15_000;

export interface FuzzOptions {
  seed: number;
  httpCases: number;
  toolCases: number;
}

export interface FamilyReport {
  cases: number;
  /** The first broken rule with its shrunk counterexample, or null. */
  failure: string | null;
  durationMs: number;
}

export interface FuzzReport {
  seed: number;
  http: FamilyReport & { statuses: Record<string, number> };
  tools: FamilyReport & { valid: number; invalid: number; tasksCreated: number };
  /** Unhandled rejections, uncaught exceptions, error-level log lines. */
  crashes: string[];
  /** 5xx answers: the backend is a healthy local sandbox, so client input caused every one. */
  serverErrors: number;
  callbacksReceived: number;
}

async function send(baseUrl: string, raw: RawRequest): Promise<RawResponse> {
  const answer = await request(`${baseUrl}${raw.path}`, {
    method: raw.method as "POST",
    headers: raw.headers,
    body: raw.body ?? null,
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  const contentType = answer.headers["content-type"];
  return {
    status: answer.statusCode,
    contentType: Array.isArray(contentType) ? contentType.join(",") : (contentType ?? ""),
    text: await answer.body.text(),
  };
}

function failureOf<T>(details: fc.RunDetails<T>): string | null {
  if (!details.failed) return null;
  const example = JSON.stringify(details.counterexample)?.slice(0, 1_000);
  return `${details.errorInstance ?? "failed"}; seed ${details.seed}, path ${details.counterexamplePath}; counterexample ${example}`;
}

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const secrets = target.stack.keys;
  const statuses: Record<string, number> = {};
  let serverErrors = 0;
  let httpCases = 0;
  const httpStarted = performance.now();
  const httpDetails = await fc.check(
    fc.asyncProperty(
      rawRequests({
        keys: secrets,
        filters: target.filters,
        toolNames: [...target.registry.compact, ...target.registry.typed].map((t) => t.name),
      }),
      async (raw) => {
        httpCases += 1;
        const response = await send(target.stack.baseUrl, raw);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status >= 500) serverErrors += 1;
        checkResponse(raw, response, secrets);
      },
    ),
    { seed: options.seed, numRuns: options.httpCases, endOnFailure: true },
  );
  const httpMs = performance.now() - httpStarted;

  const counts = { cases: 0, valid: 0, invalid: 0 };
  const tasksBefore = target.tasksCreated();
  const toolsStarted = performance.now();
  const toolDetails = await fc.check(
    fc.asyncProperty(
      toolCases(target.registry, target.catalog, target.fixtures),
      async (testCase: ToolCase) => {
        counts.cases += 1;
        counts[testCase.expect.valid ? "valid" : "invalid"] += 1;
        const before = target.tasksCreated();
        const result = await target.callTool(testCase.address, testCase.tool, testCase.args);
        checkToolResult(testCase, result, target.tasksCreated() - before);
      },
    ),
    { seed: options.seed, numRuns: options.toolCases, endOnFailure: true },
  );

  return {
    seed: options.seed,
    http: { cases: httpCases, failure: failureOf(httpDetails), durationMs: httpMs, statuses },
    tools: {
      ...counts,
      failure: failureOf(toolDetails),
      durationMs: performance.now() - toolsStarted,
      tasksCreated: target.tasksCreated() - tasksBefore,
    },
    crashes: target.crashes(),
    serverErrors,
    callbacksReceived: target.callbacksReceived(),
  };
}
