/** Runs the built `svc` (dist/cli/main.js) as a child process; every run is bounded in time. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const RUN_TIMEOUT_MS = 20_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The child's environment: the given variables only, plus PATH, so the host's SVC_* never leak in. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env };
}

export function spawnCli(
  args: string[],
  env: Record<string, string> = {},
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [MAIN, ...args], { env: childEnv(env) });
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
  stdin?: string,
): Promise<CliResult> {
  const child = spawnCli(args, env);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  child.stdin.end(stdin);
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Resolves with the first line the child prints on stdout. */
export function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error("no output in time")), RUN_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const end = buffered.indexOf("\n");
      if (end >= 0) {
        clearTimeout(timer);
        resolve(buffered.slice(0, end));
      }
    });
    child.on("close", () => reject(new Error("exited before printing a line")));
  });
}
