/**
 * Graceful shutdown of the real `svc serve` process (the built dist/cli/main.js), on its embedded
 * sandbox with slow tasks: several svc_execute calls are waiting when the signal comes. Each is
 * answered with its task's current status and task_id within SVC_SHUTDOWN_GRACE_MS, the port stops
 * taking connections, and the process closes everything it opened and exits 0 on its own.
 */
import { once } from "node:events";
import { connect } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { spawnCli } from "../cli/run-cli.js";
import { executeCall } from "../faults/fault-stack.js";
import { logSink, randomKey } from "../helpers/stack.js";
import { sampleValue, scrape } from "../metrics/exposition.js";

const WAITS = 4;
const GRACE_MS = 10_000;
/** Bound of every wait on the child; far above what any step takes. */
const STEP_TIMEOUT_MS = 20_000;

type Child = ReturnType<typeof spawnCli>;
const children: Child[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
});

interface Serving {
  child: Child;
  key: string;
  url: string;
  /** The child's log lines so far, parsed. */
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
}

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not in time`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Starts `svc serve` on a free loopback port and resolves once it listens. */
async function startServe(): Promise<Serving> {
  const key = randomKey("shutdown");
  const sink = logSink([key]);
  const child = spawnCli(["serve", "--port", "0", "--host", "127.0.0.1"], {
    LOG_LEVEL: "info",
    SVC_SANDBOX_KEYS: key,
    SVC_SANDBOX_SLOW_MS: "60000",
    SVC_SHUTDOWN_GRACE_MS: String(GRACE_MS),
  });
  children.push(child);
  const logs: Record<string, unknown>[] = [];
  let buffered = "";
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    listening = resolve;
  });
  child.stdout.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    sink.write(text);
    buffered += text;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      logs.push(entry);
      if (entry.msg === "svc-mcp listening") listening(String(entry.url));
    }
  });
  child.stderr.on("data", (chunk: Buffer) => sink.write(chunk.toString("utf8")));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, key, url: await bounded(url, "svc serve listening"), logs, exited };
}

async function connectClient(serving: Serving): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${serving.key}` } },
  });
  const client = new Client({ name: "shutdown-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

/** Resolves with the error code of a new TCP connection to the server's port (or "connected"). */
function tryConnect(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

interface TaskAnswer {
  task_id: string;
  status: string;
  next_step: string;
}

describe("svc serve stopped by a signal", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s: answers every waiting call with its task, refuses new connections, closes and exits 0",
    async (signal) => {
      const serving = await startServe();
      const clients = await Promise.all(
        Array.from({ length: WAITS }, () => connectClient(serving)),
      );
      const waiting: Promise<void>[] = [];
      const answers = clients.map((client) => {
        let seen: () => void = () => {};
        waiting.push(
          new Promise<void>((resolve) => {
            seen = resolve;
          }),
        );
        return client.callTool(
          executeCall("sandbox:slow", 45),
          undefined,
          // A progress notification means the task exists and the call is waiting on it.
          { onprogress: () => seen(), timeout: 60_000 },
        );
      });
      await bounded(Promise.all(waiting), "every call waiting");
      const before = await scrape(serving.url);
      expect(sampleValue(before.samples, "svc_mcp_inflight_requests")).toBe(WAITS);

      serving.child.kill(signal);

      const results = await bounded(Promise.all(answers), "answers after the signal");
      const tasks = results.map((result) => {
        expect(result.isError).toBeFalsy();
        return result.structuredContent as unknown as TaskAnswer;
      });
      for (const task of tasks) {
        expect(["queued", "running"]).toContain(task.status);
        expect(task.next_step).toContain(task.task_id);
        expect(task.next_step).toMatch(/svc_get_task/);
      }
      // Each answer names its own task: the one its submit created, as the server logged it.
      const answered = tasks.map((task) => task.task_id).sort();
      const submitted = serving.logs
        .filter((line) => line.msg === "task submitted")
        .map((line) => String(line.taskId))
        .sort();
      expect(new Set(answered).size).toBe(WAITS);
      expect(answered).toEqual(submitted);

      // The listening socket was closed before the waits were stopped.
      expect(await tryConnect(serving.url)).toBe("ECONNREFUSED");

      // It exits by itself, with nothing left open: the exit code is 0 only when the event loop
      // has emptied, so the backend pool, the embedded sandbox and every socket were closed.
      expect(await bounded(serving.exited, "exit")).toBe(0);
      const messages = serving.logs.map((line) => line.msg);
      expect(messages).toContain("svc-mcp stopped");
      // The answers all went out within the grace: nothing had to be cut short.
      expect(messages).not.toContain("shutdown grace elapsed; ending open MCP requests");
      await Promise.allSettled(clients.map((client) => client.close()));
    },
  );
});
