/**
 * The Docker image without a Docker engine: the Dockerfile's settings are checked, then its
 * runtime stage is replayed on this machine (npm pack -> extract into a clean folder -> the
 * lockfile -> the stage's own `npm ci` line), and the stage's CMD and HEALTHCHECK are run there.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomKey } from "../helpers/stack.js";
import { argsOf, envOf, execForm, readDockerfile, type Stage } from "./dockerfile.js";

const ROOT = process.cwd();
const STEP_TIMEOUT_MS = 120_000;
const run = promisify(execFile);

const dockerfile = readDockerfile(join(ROOT, "Dockerfile"));
const runtime = dockerfile.stages.at(-1) as Stage;
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  engines: { node: string };
};

/** `node` in an exec-form command is this machine's node. */
function localCommand(command: string[]): [string, string[]] {
  const [program, ...rest] = command;
  return [program === "node" ? process.execPath : String(program), rest];
}

describe("Dockerfile", () => {
  it("builds in two stages from a Node LTS image the package supports", () => {
    expect(dockerfile.stages.map((stage) => stage.name)).toEqual(["build", "runtime"]);
    for (const stage of dockerfile.stages) expect(stage.base).toMatch(/^\$\{NODE_IMAGE\}$/);
    const major = Number(/^node:(\d+)-slim$/.exec(dockerfile.args.NODE_IMAGE ?? "")?.[1]);
    const floor = Number(/^>=(\d+)/.exec(pkg.engines.node)?.[1]);
    expect(major % 2, "LTS lines are even-numbered").toBe(0);
    expect(major).toBeGreaterThanOrEqual(floor);
  });

  it("runs production dependencies only, as a non-root user, on 0.0.0.0:3000 with a health check", () => {
    expect(envOf(runtime)).toMatchObject({ HOST: "0.0.0.0", PORT: "3000" });
    expect(argsOf(runtime, "EXPOSE")).toEqual(["3000"]);
    expect(argsOf(runtime, "COPY").every((args) => args.includes("--from=build"))).toBe(true);
    expect(argsOf(runtime, "RUN").join(" ")).toMatch(/npm ci --omit=dev/);
    const [user] = argsOf(runtime, "USER");
    expect(user).toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
    const [healthcheck = ""] = argsOf(runtime, "HEALTHCHECK");
    expect(execForm(healthcheck).join(" ")).toContain("/healthz");
    expect(execForm(argsOf(runtime, "CMD")[0] ?? "")).toEqual([
      "node",
      "dist/cli/main.js",
      "serve",
    ]);
  });

  it("keeps secrets, dependencies and local state out of the build context", () => {
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8").split("\n");
    for (const entry of ["node_modules", ".git", ".env", ".env.*", ".npmrc", "dist", ".tmp"]) {
      expect(ignored).toContain(entry);
    }
  });
});

describe("the image's runtime stage, replayed in a clean folder", () => {
  let workdir: string;
  let app: string;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, "dist", "cli", "main.js"))) {
      throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
    }
    workdir = mkdtempSync(join(tmpdir(), "svc-mcp-image-"));
    const packed = await run(
      "npm",
      ["pack", "--ignore-scripts", "--json", "--pack-destination", workdir],
      {
        cwd: ROOT,
        timeout: STEP_TIMEOUT_MS,
      },
    );
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    await run("tar", ["-xzf", join(workdir, filename), "-C", workdir], {
      timeout: STEP_TIMEOUT_MS,
    });
    app = join(workdir, "package");
    copyFileSync(join(ROOT, "package-lock.json"), join(app, "package-lock.json"));
    const install = argsOf(runtime, "RUN")
      .flatMap((line) => line.split("&&"))
      .map((part) => part.trim())
      .find((part) => part.startsWith("npm ci "));
    const [, ...npmArgs] = (install ?? "").split(/\s+/);
    // --prefer-offline: the same install, served from the local npm cache where it can be.
    await run("npm", [...npmArgs, "--prefer-offline"], { cwd: app, timeout: STEP_TIMEOUT_MS });
  }, STEP_TIMEOUT_MS * 3);

  afterAll(() => {
    if (workdir) rmSync(workdir, { recursive: true, force: true });
  });

  it("holds the built code, the catalog and the manifest, but no sources or tests", () => {
    const entries = readdirSync(app).filter(
      (e) => e !== "node_modules" && e !== "package-lock.json",
    );
    expect(entries.sort()).toEqual(["README.md", "catalog", "dist", "package.json"]);
    expect(existsSync(join(app, "catalog", "index.json"))).toBe(true);
  });

  it("installs every dependency and no devDependency", () => {
    for (const name of Object.keys(pkg.dependencies)) {
      expect(existsSync(join(app, "node_modules", name)), name).toBe(true);
    }
    for (const name of Object.keys(pkg.devDependencies)) {
      expect(existsSync(join(app, "node_modules", name)), name).toBe(false);
    }
  });

  describe("running the image's CMD", () => {
    let child: ChildProcessWithoutNullStreams;
    let url: string;
    const key = randomKey("image");

    beforeAll(async () => {
      const [program, args] = localCommand(execForm(argsOf(runtime, "CMD")[0] ?? ""));
      child = spawn(program, args, {
        cwd: app,
        env: {
          PATH: process.env.PATH ?? "",
          ...envOf(runtime),
          HOST: "127.0.0.1",
          PORT: "0",
          SVC_SANDBOX_KEYS: key,
        },
      });
      url = await listeningUrl(child);
    });

    afterAll(async () => {
      if (child.exitCode === null) {
        const exited = once(child, "exit");
        child.kill("SIGKILL");
        await exited;
      }
    });

    it("answers /healthz and /readyz, and the image's HEALTHCHECK passes", async () => {
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const [program, args] = localCommand(execForm(argsOf(runtime, "HEALTHCHECK")[0] ?? ""));
      const port = new URL(url).port;
      const check = await run(program, args, {
        env: { PATH: process.env.PATH ?? "", PORT: port },
        timeout: 10_000,
      }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? 1,
      );
      expect(check).toBe(0);
    });

    it("serves an authenticated MCP session with the packaged catalog", async () => {
      const client = new Client({ name: "image-replay", version: "0.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${key}` } },
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(7);
        const listed = await client.callTool({ name: "svc_list_platforms", arguments: {} });
        expect(listed.isError).toBeFalsy();
        expect((listed.structuredContent as { platforms: unknown[] }).platforms).toHaveLength(12);
      } finally {
        await client.close();
      }
    });

    it("stops with exit code 0 on SIGTERM, the image's stop signal", async () => {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      expect((await exited)[0]).toBe(0);
    });
  });
});

/** Waits for the server's "svc-mcp listening" log line on stdout and returns its `url`. */
function listeningUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 20_000);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const entry = parseLogLine(line);
        if (entry?.msg === "svc-mcp listening" && entry.url) {
          clearTimeout(timer);
          resolve(entry.url);
        }
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
}

function parseLogLine(line: string): { msg?: string; url?: string } | undefined {
  try {
    return JSON.parse(line) as { msg?: string; url?: string };
  } catch {
    return undefined;
  }
}
