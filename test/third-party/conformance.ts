/**
 * Runs the official MCP conformance suite (`conformance server --suite all`) against a URL with
 * the expected-failures baseline, and reads back each scenario's checks from its output folder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFORMANCE, type Run, runWithNode22 } from "./clients.js";

export const BASELINE = join(process.cwd(), "test", "third-party", "expected-failures.yaml");
export const CONFORMANCE_TIMEOUT_MS = 90_000;

export interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  errorMessage?: string;
  details?: Record<string, unknown>;
}

export interface ConformanceRun extends Run {
  /** Checks by scenario name. */
  scenarios: Map<string, Check[]>;
}

/** `name # reason` entries of the baseline's server list. */
export function readBaseline(): { scenario: string; reason: string }[] {
  return readFileSync(BASELINE, "utf8")
    .split("\n")
    .flatMap((line) => {
      const entry = /^\s+-\s+([\w-]+)\s*(?:#\s*(.*))?$/.exec(line);
      return entry?.[1] ? [{ scenario: entry[1], reason: (entry[2] ?? "").trim() }] : [];
    });
}

function scenarioOf(folder: string): string {
  return folder.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
}

export async function runConformance(url: string): Promise<ConformanceRun> {
  const output = mkdtempSync(join(tmpdir(), "svc-conformance-"));
  try {
    const result = await runWithNode22(
      CONFORMANCE,
      ["server", "--url", url, "--suite", "all", "--expected-failures", BASELINE, "-o", output],
      {
        timeoutMs: CONFORMANCE_TIMEOUT_MS,
        env: { PATH: process.env.PATH, HOME: output, NO_COLOR: "1" },
      },
    );
    const scenarios = new Map<string, Check[]>();
    for (const folder of readdirSync(output)) {
      const checks = JSON.parse(
        readFileSync(join(output, folder, "checks.json"), "utf8"),
      ) as Check[];
      scenarios.set(scenarioOf(folder), checks);
    }
    return { ...result, scenarios };
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

/** A scenario passes when it made at least one check and none failed or warned. */
export function passed(checks: readonly Check[]): boolean {
  const scored = checks.filter((c) => c.status !== "INFO");
  return scored.length > 0 && scored.every((c) => c.status === "SUCCESS");
}

export function problems(checks: readonly Check[]): Check[] {
  return checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
}
