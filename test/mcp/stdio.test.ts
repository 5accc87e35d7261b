/**
 * The stdio bridge as MCP clients launch it: the built command spawned by the SDK's
 * StdioClientTransport, against a sandbox. stdout carries only MCP; logs go to stderr.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/index.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { logSink, randomKey } from "../helpers/stack.js";

const COMMAND = [join(process.cwd(), "dist", "cli", "main.js"), "stdio"];
const key = randomKey("stdio");
const sink = logSink([key]);
let sandbox: RunningSandbox;
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    catalog: loadCatalog(),
    keys: [key],
    queuedMs: 20,
    runningMs: 80,
  });
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await sandbox.close();
});

function childEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "", LOG_LEVEL: "debug", ...extra };
}

async function connect(args: string[], env: Record<string, string>) {
  return (await connectWithTransport(args, env)).client;
}

async function connectWithTransport(args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...COMMAND, ...args],
    env: childEnv(env),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => sink.write(chunk.toString("utf8")));
  const client = new Client({ name: "stdio-test", version: "0.0.0" });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** Runs the command to completion (bounded), for the cases that must not start. */
function runToExit(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [...COMMAND, ...args], { env: childEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
      sink.write(c.toString("utf8"));
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error("the command did not exit in time"));
    }, 20_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("svc stdio", () => {
  it("lists the compact tools and runs a collection against the backend", async () => {
    const client = await connect([], { SVC_BASE_URL: sandbox.url, SVC_API_KEY: key });
    expect(client.getServerVersion()?.name).toBe("svc-mcp");
    expect(client.getInstructions()).toMatch(/never resubmit/i);
    // The very tools the HTTP server lists at /mcp (its reviewed snapshot).
    const { tools } = await client.listTools();
    const overHttp = readFileSync(
      join(import.meta.dirname, "../__snapshots__/tools-list/default-compact.json"),
      "utf8",
    );
    expect(tools).toEqual(JSON.parse(overHttp));
    const run = await client.callTool({
      name: "svc_execute",
      arguments: {
        endpoint: "social-network/comments",
        input: { urls: ["https://social-network.example/p/1"] },
        wait_seconds: 10,
        result_limit: 2,
      },
    });
    const task = run.structuredContent as { task_id: string; status: string; items: unknown[] };
    expect(task.status).toBe("succeeded");
    expect(task.items).toHaveLength(2);
  });

  it("selects tools with --platforms, --tools and --readonly like the URL filters", async () => {
    const env = { SVC_BASE_URL: sandbox.url, SVC_API_KEY: key };
    const typed = await connect(
      ["--platforms", "thread-network", "--tools", "pin-network/pins"],
      env,
    );
    expect((await typed.listTools()).tools.map((t) => t.name)).toEqual([
      "svc_pin_network_pins",
      "svc_thread_network_posts",
      "svc_thread_network_profiles",
      "svc_thread_network_user_posts",
      "svc_get_task",
      "svc_get_files",
    ]);
    const readonly = await connect(["--readonly"], env);
    expect((await readonly.listTools()).tools.map((t) => t.name)).not.toContain("svc_execute");
  });

  it("starts an embedded sandbox that accepts SVC_API_KEY when SVC_BASE_URL is unset", async () => {
    const client = await connect([], { SVC_API_KEY: key });
    const account = await client.callTool({ name: "svc_account", arguments: {} });
    expect(account.isError).toBeFalsy();
    expect(sink.logs.join("")).toMatch(/embedded sandbox/);
  });

  it("on SIGTERM, answers an in-flight wait with the task's current status, then exits", async () => {
    const { client, transport } = await connectWithTransport([], {
      SVC_BASE_URL: sandbox.url,
      SVC_API_KEY: key,
    });
    const exited = new Promise<void>((resolve) => {
      client.onclose = () => resolve();
    });
    const result = await client.callTool(
      {
        name: "svc_execute",
        arguments: {
          endpoint: "social-network-ad-library/company-search",
          input: { query: "sandbox:slow" },
          wait_seconds: 45,
        },
      },
      undefined,
      { onprogress: () => process.kill(transport.pid as number, "SIGTERM"), timeout: 60_000 },
    );
    expect(result.isError).toBeFalsy();
    expect(["queued", "running"]).toContain(
      (result.structuredContent as { status: string }).status,
    );
    await exited;
  });

  it("exits 2 with a clear message on stderr and nothing on stdout without SVC_API_KEY", async () => {
    const result = await runToExit([], { SVC_BASE_URL: sandbox.url });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/SVC_API_KEY/);
  });

  it("exits 2 naming an unknown platform and the nearest names", async () => {
    const result = await runToExit(["--platforms", "photo-netwrk"], {
      SVC_BASE_URL: sandbox.url,
      SVC_API_KEY: key,
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/photo-netwrk.*unknown platform.*photo-network/);
  });
});
