/**
 * `svc serve` as shipped (the built dist/cli/main.js, as `npm test` builds it) on 127.0.0.1 port 0
 * with its embedded sandbox. The sandbox accepts two keys: it announces the first at start, the
 * tests use the second, and every line the process writes goes to the log sink that the global
 * teardown scans for that second key.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { logSink, randomKey } from "../helpers/stack.js";

const MAIN = join(process.cwd(), "dist", "cli", "main.js");
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;

export interface ServedProcess {
  /** `http://127.0.0.1:<port>/mcp`. */
  mcpUrl: string;
  /** The key the tests use (never announced, never logged). */
  key: string;
  logs: string[];
  close(): Promise<void>;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export async function startServe(): Promise<ServedProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first`);
  const key = randomKey("third-party");
  const sink = logSink([key]);
  const child = spawn(process.execPath, [MAIN, "serve"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SVC_SANDBOX_KEYS: `${randomKey("announced")},${key}`,
      SVC_SANDBOX_QUEUED_MS: "20",
      SVC_SANDBOX_RUNNING_MS: "80",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.setEncoding("utf8").on("data", sink.write);
  child.stderr?.setEncoding("utf8").on("data", sink.write);
  try {
    const mcpUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("svc serve did not start listening in time")),
        START_TIMEOUT_MS,
      );
      const onData = () => {
        const found = /"mcp":"(http:\/\/127\.0\.0\.1:\d+\/mcp)"/.exec(sink.logs.join(""));
        if (!found?.[1]) return;
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        resolve(found[1]);
      };
      child.stdout?.on("data", onData);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`svc serve exited with ${code} before listening:\n${sink.logs.join("")}`));
      });
    });
    return { mcpUrl, key, logs: sink.logs, close: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}
