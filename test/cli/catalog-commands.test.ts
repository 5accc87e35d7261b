import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/index.js";
import { runCli } from "./run-cli.js";

const catalog = loadCatalog();

describe("commands that read the local catalog (no key, no backend)", () => {
  it("svc platforms lists every platform", async () => {
    const json = await runCli(["platforms", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(catalog.platforms);
    const text = await runCli(["platforms"]);
    expect(text.stdout.split("\n")[0]).toMatch(/^PLATFORM\s+ENDPOINTS\s+TITLE$/);
    expect(text.stdout.trimEnd().split("\n")).toHaveLength(catalog.platforms.length + 1);
  });

  it("svc endpoints filters by platform, tag and words", async () => {
    const byPlatform = await runCli(["endpoints", "--platform", "video-network", "--json"]);
    const ids = JSON.parse(byPlatform.stdout).map((entry: { id: string }) => entry.id);
    const expected = catalog.endpoints.filter((e) => e.platform === "video-network");
    expect(ids.sort()).toEqual(expected.map((e) => e.public_id).sort());
    const tag = expected[0]?.tags[0] ?? "";
    const byTag = await runCli(["endpoints", "--tag", tag, "--json"]);
    for (const entry of JSON.parse(byTag.stdout)) expect(entry.tags).toContain(tag);
    const byWords = await runCli(["endpoints", "--query", "comments"]);
    expect(byWords.stdout).toContain("social-network/comments");
  });

  it("svc endpoints names the nearest platform for an unknown one", async () => {
    const run = await runCli(["endpoints", "--platform", "video-netwrk"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("nearest: video-network");
  });

  it("svc describe shows fields, rules and runnable examples", async () => {
    const text = await runCli(["describe", "social-network/pages"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/results_limit\s+integer, optional, >= 1, <= 2000/);
    expect(text.stdout).toContain(
      "Give at least one of: query, urls, usernames (they can be combined).",
    );
    expect(text.stdout).toContain("svc run social-network/pages --input '");
    const json = await runCli(["describe", "svc_social_network_pages", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: "social-network/pages" });
    const unknown = await runCli(["describe", "social-network/page"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown endpoint "social-network/page"');
  });
});

describe("help and usage", () => {
  const commands = [
    "serve",
    "sandbox",
    "platforms",
    "endpoints",
    "describe",
    "run",
    "task",
    "files",
    "account",
  ];

  it.each(commands)("svc %s --help exits 0 with its usage", async (command) => {
    const run = await runCli([command, "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: svc ${command}`);
  });

  it("svc --help documents the exit codes", async () => {
    const run = await runCli(["--help"]);
    expect(run.code).toBe(0);
    for (const code of ["0", "1", "2", "3", "4", "5", "6", "130"]) {
      expect(run.stdout).toMatch(new RegExp(`\\n  ${code}\\s+\\S`));
    }
  });

  it("svc sandbox --help lists every knob with its variable", async () => {
    const run = await runCli(["sandbox", "--help"]);
    expect(run.stdout).toContain("--queued-ms <ms>");
    expect(run.stdout).toContain("SVC_SANDBOX_QUEUED_MS");
  });

  it("a bad flag or unknown command is a usage error", async () => {
    expect((await runCli(["nope"])).code).toBe(2);
    expect((await runCli(["run", "a/b"])).code).toBe(2);
    expect((await runCli(["task", "t", "--limit", "0"])).code).toBe(2);
    expect((await runCli(["sandbox", "--queued-ms", "soon"])).code).toBe(2);
    const config = await runCli(["account"], { SVC_BASE_URL: "not a url", SVC_API_KEY: "k" });
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/^svc: SVC_BASE_URL: must be an absolute http\(s\) URL/);
  });
});
