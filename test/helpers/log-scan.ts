/**
 * Vitest global setup: empties .tmp/test-logs/ before the run and, after it, scans every log line
 * the run captured (see stack.ts) for every key the run used. A key found in a log fails the run,
 * naming the file and line, never the key.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const LOG_DIR = join(process.cwd(), ".tmp", "test-logs");

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

export function setup(): void {
  rmSync(LOG_DIR, { recursive: true, force: true });
}

export function teardown(): void {
  const leaks = findLeakedKeys(LOG_DIR);
  if (leaks.length > 0) {
    // Vitest only prints an error thrown from a global teardown; the exit code makes it fail.
    process.exitCode = 1;
    throw new Error(
      `An API key used by the tests appears in ${leaks.length} log line(s): ${leaks.slice(0, 20).join(", ")} (under .tmp/test-logs/)`,
    );
  }
}
