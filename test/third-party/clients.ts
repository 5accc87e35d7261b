/**
 * The pinned third-party MCP clients (tools/package.json + its lockfile): the official
 * conformance suite and the MCP Inspector CLI, run with the Node 22 binary the same lockfile pins
 * (both need Node 22; the project itself runs on Node 20). They are installed on demand with
 * `npm ci --prefix test/third-party/tools`, once per lockfile (a marker holds its hash), and every
 * run is bounded in time: an unreachable registry or a stuck client fails with a clear message.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const TOOLS_DIR = join(process.cwd(), "test", "third-party", "tools");
const MODULES = join(TOOLS_DIR, "node_modules");
const MARKER = join(MODULES, ".installed-lock-sha256");
export const NODE22 = join(MODULES, "node", "bin", "node");
export const CONFORMANCE = join(
  MODULES,
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);
export const INSPECTOR = join(
  MODULES,
  "@modelcontextprotocol",
  "inspector",
  "clients",
  "launcher",
  "build",
  "index.js",
);

export const INSTALL_TIMEOUT_MS = 150_000;
const OUTPUT_LIMIT = 4 * 1024 * 1024;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunOptions {
  timeoutMs: number;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Runs a command to its end, or kills it (and its group) after `timeoutMs`. Never rejects. */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? process.cwd(),
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const out: string[] = [];
    const err: string[] = [];
    let size = 0;
    const keep = (into: string[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size <= OUTPUT_LIMIT) into.push(chunk.toString("utf8"));
    };
    child.stdout.on("data", keep(out));
    child.stderr.on("data", keep(err));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group has already exited
      }
    }, options.timeoutMs);
    const finish = (code: number | null, extra = "") => {
      clearTimeout(timer);
      resolve({ code, stdout: out.join(""), stderr: err.join("") + extra, timedOut });
    };
    child.once("error", (error) => finish(null, `\n${error.message}`));
    child.once("close", (code) => finish(code));
  });
}

function lockHash(): string {
  return createHash("sha256")
    .update(readFileSync(join(TOOLS_DIR, "package-lock.json")))
    .digest("hex");
}

function describeFailure(what: string, result: Run, timeoutMs: number): string {
  const why = result.timedOut
    ? `did not finish within ${timeoutMs / 1000} s`
    : `exited with ${result.code}`;
  const tail = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-15).join("\n");
  return `${what} ${why}. The third-party client tests install pinned clients from the npm registry once (cached afterwards); is it reachable?\n${tail}`;
}

/** Installs the pinned clients unless this lockfile is already installed. Throws a clear error. */
export async function ensureClients(): Promise<void> {
  const hash = lockHash();
  if (existsSync(MARKER) && readFileSync(MARKER, "utf8") === hash && existsSync(NODE22)) return;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = [
    "ci",
    "--prefix",
    TOOLS_DIR,
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    "--fetch-retries=1",
    "--fetch-timeout=30000",
  ];
  const result = await run(npm, args, { timeoutMs: INSTALL_TIMEOUT_MS });
  if (result.code !== 0)
    throw new Error(describeFailure(`npm ${args.join(" ")}`, result, INSTALL_TIMEOUT_MS));
  const version = await run(NODE22, ["--version"], { timeoutMs: 10_000 });
  if (!version.stdout.startsWith("v22.")) {
    throw new Error(
      `the pinned node package gave ${JSON.stringify(version.stdout.trim())}, not v22.x`,
    );
  }
  writeFileSync(MARKER, hash);
}

/** Runs a pinned client's script under Node 22; a timeout is reported, not thrown. */
export function runWithNode22(
  script: string,
  args: readonly string[],
  options: RunOptions,
): Promise<Run> {
  return run(NODE22, [script, ...args], options);
}
