/**
 * The README's examples, run. `sh readme-test=sandbox|server` blocks run as bash scripts against a
 * live sandbox or MCP server (`http://127.0.0.1:3000` becomes its address, `svc` is the built CLI);
 * `json readme-test=client` blocks are used as an MCP client would use them.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv, MAIN } from "../cli/run-cli.js";
import { type Stack, startStack } from "../helpers/stack.js";
import { fencedBlocks } from "./markdown.js";

/** The key the README's examples use: the sandbox's default. */
const README_KEY = "sandbox-key";
const README_ORIGIN = /http:\/\/127\.0\.0\.1:3000(?!\d)/g;
const SCRIPT_TIMEOUT_MS = 60_000;
const run = promisify(execFile);

const blocks = fencedBlocks();
const scripts = blocks.filter((b) => b.lang === "sh" && b.attributes["readme-test"] !== undefined);
const clients = blocks.filter((b) => b.lang === "json" && b.attributes["readme-test"] === "client");

/** Texts after `# → `, in order: each must appear in a later line of the output than the last. */
function expectations(script: string): string[] {
  return script
    .split("\n")
    .flatMap((line) => (line.includes("# → ") ? [line.split("# → ")[1]?.trim() ?? ""] : []));
}

function unmetExpectation(output: string, expected: string[]): string | undefined {
  const lines = output.split("\n");
  let from = 0;
  for (const text of expected) {
    const at = lines.findIndex((line, index) => index >= from && line.includes(text));
    if (at === -1) return text;
    from = at + 1;
  }
  return undefined;
}

let stack: Stack;
let workdir: string;

beforeAll(async () => {
  stack = await startStack({ keys: [README_KEY] });
  workdir = mkdtempSync(join(tmpdir(), "svc-readme-"));
  const svc = join(workdir, "bin", "svc");
  mkdirSync(join(workdir, "bin"));
  writeFileSync(svc, `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
  chmodSync(svc, 0o755);
});

afterAll(async () => {
  await stack?.close();
  if (workdir) rmSync(workdir, { recursive: true, force: true });
});

describe("README shell examples", () => {
  it("has runnable examples for both targets", () => {
    const targets = new Set(scripts.map((b) => b.attributes["readme-test"]));
    expect([...targets].sort()).toEqual(["sandbox", "server"]);
  });

  it.each(scripts.map((b) => [b.line, b] as const))(
    "block at line %i runs",
    async (_line, block) => {
      const target = block.attributes["readme-test"];
      const origin = target === "sandbox" ? stack.sandbox.url : stack.baseUrl;
      const cwd = mkdtempSync(join(workdir, "run-"));
      const file = join(cwd, "example.sh");
      writeFileSync(file, `set -euo pipefail\n${block.body.replace(README_ORIGIN, origin)}\n`);
      const result = await run("bash", [file], {
        cwd,
        timeout: SCRIPT_TIMEOUT_MS,
        env: { PATH: `${join(workdir, "bin")}:${process.env.PATH ?? ""}`, HOME: cwd },
      }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
        throw new Error(`exit ${error.code}\n${error.stdout}\n${error.stderr}`);
      });
      expect(
        unmetExpectation(result.stdout, expectations(block.body)),
        result.stdout,
      ).toBeUndefined();
    },
  );
});

interface ServerEntry {
  type?: string;
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}

function withKey(value: string): string {
  return value.replace(/\$\{[^}]+\}/g, README_KEY);
}

/** The transport a client builds from one server entry, pointed at the test's own server. */
function transportFor(entry: ServerEntry): Transport {
  if (entry.url !== undefined) {
    const address = new URL(entry.url);
    expect(address.pathname).toBe("/mcp");
    const headers = Object.fromEntries(
      Object.entries(entry.headers ?? {}).map(([name, value]) => [name, withKey(value)]),
    );
    expect(headers.Authorization).toBe(`Bearer ${README_KEY}`);
    return new StreamableHTTPClientTransport(new URL(`/mcp${address.search}`, stack.baseUrl), {
      requestInit: { headers },
    });
  }
  const args = entry.args ?? [];
  let rest: string[];
  if (entry.command === "npx") {
    expect(args.slice(0, 2)).toEqual(["-y", "svc-mcp"]);
    rest = args.slice(2);
  } else {
    expect(entry.command).toBe("node");
    expect(args[0]).toMatch(/\/dist\/cli\/main\.js$/);
    rest = args.slice(1);
  }
  const env = Object.fromEntries(
    Object.entries(entry.env ?? {}).map(([name, value]) => [name, withKey(value)]),
  );
  expect(Object.keys(env)).toContain("SVC_API_KEY");
  return new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, ...rest],
    env: childEnv(env) as Record<string, string>,
    stderr: "pipe",
  });
}

describe("README client configurations", () => {
  const entries = clients.flatMap((block) => {
    const config = JSON.parse(block.body) as {
      mcpServers?: Record<string, ServerEntry>;
      servers?: Record<string, ServerEntry>;
    };
    const servers = config.mcpServers ?? config.servers ?? {};
    return Object.entries(servers).map(([name, entry]) => [`${name} (line ${block.line})`, entry]);
  }) as [string, ServerEntry][];

  it("shows remote and stdio configurations", () => {
    expect(entries.some(([, entry]) => entry.url)).toBe(true);
    expect(entries.some(([, entry]) => entry.command)).toBe(true);
  });

  it.each(entries)("%s connects and lists tools", async (_name, entry) => {
    const client = new Client({ name: "readme-test", version: "0.0.0" });
    await client.connect(transportFor(entry));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("svc_get_task");
    } finally {
      await client.close();
    }
  });
});
