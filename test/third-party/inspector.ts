/**
 * Runs the MCP Inspector CLI (`inspector --cli <url> --transport http --header ... --method ...
 * --format json`) in a throwaway HOME, so no catalog, config or stored OAuth state leaks in or out.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INSPECTOR, type Run, runWithNode22 } from "./clients.js";

export const INSPECTOR_TIMEOUT_MS = 60_000;

export interface InspectorRun extends Run {
  /** stdout as JSON (`{result: ...}`), when it parses. */
  result: Record<string, unknown> | undefined;
  /** The error envelope on stderr (`{error: {code, message}}`), when there is one. */
  error: { code?: string; message?: string } | undefined;
}

/** The whole text as JSON, else its last line that parses. */
function lastJson(text: string): Record<string, unknown> | undefined {
  for (const line of [text, ...text.trim().split("\n").reverse()]) {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      // not the JSON line
    }
  }
  return undefined;
}

export async function inspect(
  url: string,
  key: string,
  args: readonly string[],
): Promise<InspectorRun> {
  const home = mkdtempSync(join(tmpdir(), "svc-inspector-"));
  try {
    const result = await runWithNode22(
      INSPECTOR,
      [
        "--cli",
        url,
        "--transport",
        "http",
        "--header",
        `Authorization: Bearer ${key}`,
        "--stored-auth-only",
        "--format",
        "json",
        ...args,
      ],
      {
        timeoutMs: INSPECTOR_TIMEOUT_MS,
        env: { PATH: process.env.PATH, HOME: home, NO_COLOR: "1" },
      },
    );
    const stdout = lastJson(result.stdout);
    return {
      ...result,
      result: stdout?.result as Record<string, unknown> | undefined,
      error: lastJson(result.stderr)?.error as InspectorRun["error"],
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
