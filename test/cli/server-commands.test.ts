import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { childEnv, firstLine, MAIN, runCli, spawnCli } from "./run-cli.js";

describe("svc sandbox", () => {
  it("prints its URL and keys, serves the REST interface, and stops cleanly on SIGINT", async () => {
    const child = spawnCli(["sandbox", "--port", "0", "--json", "--running-ms", "50"], {
      SVC_SANDBOX_KEYS: "key-one,key-two",
    });
    try {
      const started = JSON.parse(await firstLine(child)) as { url: string; keys: string[] };
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(started.keys).toEqual(["key-one", "key-two"]);
      const env = { SVC_BASE_URL: started.url, SVC_API_KEY: "key-two" };
      const account = await runCli(["account", "--json"], env);
      expect(account.code).toBe(0);
      expect(JSON.parse(account.stdout).credits.balance).toBeGreaterThan(0);
      const refused = await runCli(["account"], { ...env, SVC_API_KEY: "sandbox-key" });
      expect(refused.code).toBe(3);
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGINT");
      const [code] = await exited;
      expect(code).toBe(0);
    }
  });

  it("prints how to use it, as text by default", async () => {
    const child = spawnCli(["sandbox", "--port", "0"]);
    try {
      expect(await firstLine(child)).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      expect((await exited)[0]).toBe(0);
    }
  });

  it("refuses a bad knob, naming the flag or the variable", async () => {
    const flag = await runCli(["sandbox", "--port", "0", "--failure-rate", "2"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--failure-rate");
    const variable = await runCli(["sandbox", "--port", "0"], { SVC_SANDBOX_QUEUED_MS: "-1" });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain("SVC_SANDBOX_QUEUED_MS");
  });
});

/** Reads pino JSON lines from the child's stdout until one has `msg`; returns that line. */
function logLine(
  child: ReturnType<typeof spawnCli>,
  msg: string,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error(`no "${msg}" log line in time`)), 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      for (const line of buffered.split("\n").slice(0, -1)) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.msg === msg) {
          clearTimeout(timer);
          resolve(entry);
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
    });
  });
}

describe("svc serve", () => {
  it("listens on --port, backed by the embedded sandbox, and stops cleanly on SIGTERM", async () => {
    const child = spawnCli(["serve", "--port", "0", "--host", "127.0.0.1"], { LOG_LEVEL: "info" });
    try {
      const listening = await logLine(child, "svc-mcp listening");
      const url = String(listening.url);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      expect((await exited)[0]).toBe(0);
    }
  });

  it("names the public default key at start, but never keys set through SVC_SANDBOX_KEYS", async () => {
    for (const [env, expected, secret] of [
      [{}, 'Connect with \\"Authorization: Bearer sandbox-key', undefined],
      [
        { SVC_SANDBOX_KEYS: "private-start-key" },
        "keys set in SVC_SANDBOX_KEYS",
        "private-start-key",
      ],
    ] as const) {
      const child = spawnCli(["serve", "--port", "0", "--host", "127.0.0.1"], {
        LOG_LEVEL: "info",
        ...env,
      });
      let stdout = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
      });
      try {
        const announced = await logLine(child, "svc-mcp listening");
        expect(String(announced.url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      } finally {
        const exited = once(child, "exit");
        child.kill("SIGTERM");
        await exited;
      }
      expect(stdout).toContain(expected);
      if (secret) expect(stdout).not.toContain(secret);
    }
  });

  it("refuses a bad configuration with a one-line message and the usage exit code", async () => {
    const run = await runCli(["serve", "--port", "0"], { SVC_WAIT_MAX_SECONDS: "forever" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('svc: SVC_WAIT_MAX_SECONDS: must be a whole number, got "forever"\n');
  });
});

describe("svc with no arguments", () => {
  it("ships as a package for Node.js 20 or later whose svc-mcp command is this entry point", () => {
    const packageUrl = new URL("../../package.json", import.meta.url);
    const pkg = JSON.parse(readFileSync(packageUrl, "utf8")) as {
      engines: { node: string };
      bin: Record<string, string>;
    };
    expect(pkg.engines.node).toMatch(/^>=20(\.|$)/);
    expect(fileURLToPath(new URL(pkg.bin["svc-mcp"] ?? "", packageUrl))).toBe(MAIN);
  });

  it("starts the stdio bridge when stdin is not a terminal (how `npx svc-mcp` is launched)", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN],
      env: childEnv({ SVC_API_KEY: "no-args-key" }) as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "no-args-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("svc_execute");
      const account = await client.callTool({ name: "svc_account", arguments: {} });
      expect(account.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
