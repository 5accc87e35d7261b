/**
 * Vitest global setup: gives this run its own folder under .tmp/test-logs/ (so that runs side by
 * side never touch each other's files) and, after the run, scans every log line captured there
 * (see stack.ts) for every key the run used. A key found in a log fails the run, naming the file
 * and line, never the key; the folder is then kept for inspection, else removed.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    testLogDir: string;
  }
}

/** Lines (file:line) of the captured logs that contain any of the keys written beside them. */
export function findLeakedKeys(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir);
  const keys = new Set<string>();
  for (const file of files.filter((f) => f.endsWith(".keys"))) {
    for (const key of readFileSync(join(dir, file), "utf8").split("\n")) {
      if (key.trim()) keys.add(key.trim());
    }
  }
  const leaks: string[] = [];
  for (const file of files.filter((f) => f.endsWith(".log"))) {
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    lines.forEach((line, index) => {
      for (const key of keys) {
        if (line.includes(key)) leaks.push(`${file}:${index + 1}`);
      }
    });
  }
  return leaks;
}

let runDir = "";

export function setup(project: TestProject): void {
  runDir = join(
    process.cwd(),
    ".tmp",
    "test-logs",
    `run-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  mkdirSync(runDir, { recursive: true });
  project.provide("testLogDir", runDir);
}

export function teardown(): void {
  const leaks = findLeakedKeys(runDir);
  if (leaks.length > 0) {
    // Vitest only prints an error thrown from a global teardown; the exit code makes it fail.
    process.exitCode = 1;
    throw new Error(
      `An API key used by the tests appears in ${leaks.length} log line(s): ${leaks.slice(0, 20).join(", ")} (under ${runDir})`,
    );
  }
  rmSync(runDir, { recursive: true, force: true });
}
