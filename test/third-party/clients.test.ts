/**
 * Third-party MCP clients against `svc serve` as shipped: the official conformance suite (through
 * a loopback proxy that adds the Authorization header it cannot send) and the MCP Inspector CLI.
 * Both are pinned in test/third-party/tools and run under Node 22; see README "Verification".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/index.js";
import { COMPACT_TOOL_NAMES } from "../helpers/contract.js";
import { type AuthProxy, startAuthProxy } from "./auth-proxy.js";
import { ensureClients, INSTALL_TIMEOUT_MS } from "./clients.js";
import {
  CONFORMANCE_TIMEOUT_MS,
  type ConformanceRun,
  passed,
  problems,
  readBaseline,
  runConformance,
} from "./conformance.js";
import { INSPECTOR_TIMEOUT_MS, inspect } from "./inspector.js";
import { type ServedProcess, startServe } from "./serve.js";

/** The generic scenarios every MCP server must pass (logging-set-level once logging is declared). */
const REQUIRED = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];
/** Why a baseline scenario may fail: the method, the fixture tool or a session is absent. */
const NOT_APPLICABLE =
  /Method not found|Unknown tool "test_|Tool '\w+' not found|did not provide session ID|did not send (priming event|retry field)/;

const catalog = loadCatalog();
let served: ServedProcess;

beforeAll(async () => {
  await ensureClients();
  served = await startServe();
}, INSTALL_TIMEOUT_MS + 30_000);
afterAll(() => served?.close());

describe("official conformance suite (@modelcontextprotocol/conformance 0.1.16)", () => {
  let proxy: AuthProxy;
  let conformance: ConformanceRun;

  beforeAll(async () => {
    proxy = await startAuthProxy(served.mcpUrl, `Bearer ${served.key}`);
    conformance = await runConformance(`${proxy.url}/mcp`);
  }, CONFORMANCE_TIMEOUT_MS + 10_000);
  afterAll(() => proxy?.close());

  it("ends with no unexpected failure and no stale baseline entry", () => {
    expect(conformance.timedOut).toBe(false);
    expect(conformance.stdout).toContain("Baseline check passed");
    expect(conformance.code, conformance.stdout.slice(-2_000)).toBe(0);
  });

  it("passes the generic scenarios with real checks", () => {
    for (const scenario of REQUIRED) {
      const checks = conformance.scenarios.get(scenario) ?? [];
      expect(passed(checks), `${scenario}: ${JSON.stringify(checks)}`).toBe(true);
    }
    const listed = conformance.scenarios.get("tools-list")?.[0]?.details;
    expect(listed?.tools).toEqual(COMPACT_TOOL_NAMES);
  });

  it("classifies every scenario, and each baseline entry fails only because it does not apply", () => {
    const baseline = readBaseline();
    expect([...conformance.scenarios.keys()].sort()).toEqual(
      [...REQUIRED, ...baseline.map((b) => b.scenario)].sort(),
    );
    for (const { scenario, reason } of baseline) {
      expect(reason, `${scenario} needs a one-line reason`).not.toBe("");
      const failed = problems(conformance.scenarios.get(scenario) ?? []);
      expect(failed.length, scenario).toBeGreaterThan(0);
      for (const check of failed) {
        expect(`${check.errorMessage ?? ""} ${JSON.stringify(check.details ?? {})}`).toMatch(
          NOT_APPLICABLE,
        );
      }
    }
  });

  it("meets the server's own Host check: a rebound name gets 403, the proxy hid nothing", () => {
    const checks = conformance.scenarios.get("dns-rebinding-protection") ?? [];
    const rejected = checks.find((c) => c.id === "localhost-host-rebinding-rejected")?.details;
    expect(rejected?.statusCode).toBe(403);
    expect(JSON.stringify(rejected?.body)).toMatch(/Host header not allowed/);
    const accepted = checks.find((c) => c.id === "localhost-host-valid-accepted")?.details;
    expect(accepted?.statusCode).toBe(200);
    expect(proxy.forwarded).toContainEqual({
      host: "evil.example.com",
      origin: "http://evil.example.com",
    });
  });
});

describe("MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0)", () => {
  const call = (args: string[], url = served.mcpUrl) => inspect(url, served.key, args);
  type Inspected = Awaited<ReturnType<typeof inspect>>;
  const structured = (run: Inspected) => run.result?.structuredContent as Record<string, unknown>;
  const toolNames = (run: Inspected) =>
    ((run.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
  const firstText = (run: Inspected) =>
    ((run.result?.content ?? []) as { text: string }[])[0]?.text ?? "";

  it("lists the seven compact tools", { timeout: INSPECTOR_TIMEOUT_MS }, async () => {
    const run = await call(["--method", "tools/list", "--strict"]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames(run)).toEqual(COMPACT_TOOL_NAMES);
  });

  it("finds no schema portability error in any typed tool (--strict)", {
    timeout: INSPECTOR_TIMEOUT_MS,
  }, async () => {
    const platforms = catalog.platforms.map((p) => p.platform).join(",");
    const run = await call(
      ["--method", "tools/list", "--strict"],
      `${served.mcpUrl}?platforms=${platforms}`,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/\b0 errors\b/);
    expect(toolNames(run)).toEqual([
      ...catalog.endpoints.map((e) => e.tool_name),
      "svc_get_task",
      "svc_get_files",
    ]);
  });

  it("calls svc_list_platforms and svc_describe_endpoint", {
    timeout: 2 * INSPECTOR_TIMEOUT_MS,
  }, async () => {
    const platforms = await call(["--method", "tools/call", "--tool-name", "svc_list_platforms"]);
    expect(platforms.code, platforms.stderr).toBe(0);
    const listed = structured(platforms).platforms as { platform: string }[];
    expect(listed.map((p) => p.platform)).toEqual(catalog.platforms.map((p) => p.platform));
    expect(JSON.parse(firstText(platforms))).toEqual(structured(platforms));

    const args = [
      "--tool-name",
      "svc_describe_endpoint",
      "--tool-arg",
      "endpoint=social-network/pages",
    ];
    const described = await call(["--method", "tools/call", ...args]);
    expect(described.code, described.stderr).toBe(0);
    expect(structured(described).id).toBe("social-network/pages");
    expect(structured(described).input_schema).toEqual(
      catalog.endpoint("social-network/pages")?.input_schema,
    );
  });

  it("runs a collection with svc_execute and with a typed tool", {
    timeout: 2 * INSPECTOR_TIMEOUT_MS,
  }, async () => {
    const input = {
      endpoint: "social-network/pages",
      input: { query: "coffee", results_limit: 3 },
      wait_seconds: 20,
    };
    const executed = await call([
      "--method",
      "tools/call",
      "--tool-name",
      "svc_execute",
      "--tool-args-json",
      JSON.stringify(input),
    ]);
    expect(executed.code, executed.stderr).toBe(0);
    expect(structured(executed)).toMatchObject({ status: "succeeded", has_more: false });
    expect(structured(executed).items).toHaveLength(3);

    const typedArgs = [
      "--tool-name",
      "svc_social_network_pages",
      "--tool-arg",
      "query=tea",
      "results_limit=2",
    ];
    const typed = await call(
      ["--method", "tools/call", ...typedArgs],
      `${served.mcpUrl}?tools=social-network/pages`,
    );
    expect(typed.code, typed.stderr).toBe(0);
    expect(structured(typed).status).toBe("succeeded");
    expect(structured(typed).items).toHaveLength(2);
  });

  it("reports invalid input and a rejected key as failures", {
    timeout: 2 * INSPECTOR_TIMEOUT_MS,
  }, async () => {
    const invalid = { endpoint: "social-network/pages", input: { results_limit: 0 } };
    const refused = await call([
      "--method",
      "tools/call",
      "--tool-name",
      "svc_execute",
      "--tool-args-json",
      JSON.stringify(invalid),
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.error?.code).toBe("tool_is_error");
    const text = firstText(refused);
    expect(text).toMatch(/results_limit must be at least 1/);
    expect(text).toMatch(/provide at least one of query, urls, usernames/);

    const wrongKey = await inspect(served.mcpUrl, "not-a-key", ["--method", "tools/list"]);
    expect(wrongKey.code).not.toBe(0);
    expect(wrongKey.error?.message).toMatch(/rejected/);
  });
});
