import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/index.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { closedPort } from "../backend/scripted-server.js";
import { runCli } from "./run-cli.js";

const ENDPOINT = "social-network/comments";
const INPUT = JSON.stringify({ urls: ["https://www.social-network.example/natgeo/posts/1"] });

let sandbox: RunningSandbox;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ catalog: loadCatalog(), queuedMs: 20, runningMs: 100 });
  env = { SVC_BASE_URL: sandbox.url, SVC_API_KEY: sandbox.keys[0] ?? "" };
  dir = await mkdtemp(join(tmpdir(), "svc-cli-"));
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** Submits and waits; returns the finished task as `svc run --json` prints it. */
async function finishedTask(input = INPUT) {
  const run = await runCli(["run", ENDPOINT, "--input", input, "--wait", "15", "--json"], env);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as { task_id: string; status: string; result_count: number };
}

describe("svc run", () => {
  it("submits, waits and prints the finished task with the first page", async () => {
    const run = await runCli(
      ["run", ENDPOINT, "--input", INPUT, "--wait", "15", "--limit", "3", "--json"],
      env,
    );
    expect(run.code).toBe(0);
    const task = JSON.parse(run.stdout);
    expect(task.status).toBe("succeeded");
    expect(task.results.items).toHaveLength(3);
    expect(task.results.has_more).toBe(task.result_count > 3);
  });

  it("prints records as text by default", async () => {
    const run = await runCli(["run", ENDPOINT, "--input", INPUT, "--wait", "15"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Task \S+ succeeded with \d+ results\./);
    expect(run.stdout).toMatch(/\n1\. \[comment /);
    expect(run.stdout).not.toContain("\x1b[");
  });

  it("without --wait prints the task id and returns at once", async () => {
    const run = await runCli(["run", ENDPOINT, "--input", INPUT, "--json"], env);
    expect(run.code).toBe(0);
    const submitted = JSON.parse(run.stdout);
    expect(typeof submitted.task_id).toBe("string");
    expect(["queued", "running"]).toContain(submitted.status);
  });

  it("exits 1 with the reason when the task fails", async () => {
    const input = JSON.stringify({ urls: ["sandbox:fail"] });
    const run = await runCli(["run", ENDPOINT, "--input", input, "--wait", "15"], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/failed: .*sandbox:fail/);
  });

  it("exits 6 when --wait runs out, and says how to read the task later", async () => {
    const input = JSON.stringify({ urls: ["sandbox:slow"] });
    const run = await runCli(["run", ENDPOINT, "--input", input, "--wait", "0.3"], env);
    expect(run.code).toBe(6);
    expect(run.stdout).toMatch(/is (queued|running)\. Read it again with: svc task \S+/);
  });

  it("validates locally: invalid input exits 2 naming the field, and nothing is submitted", async () => {
    const before = sandbox.stats().tasksCreated;
    const run = await runCli(["run", ENDPOINT, "--input", '{"urls":[],"extra":1}'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("nothing was sent");
    expect(run.stderr).toMatch(/- urls: /);
    expect(run.stderr).toMatch(/extra/);
    const notJson = await runCli(["run", ENDPOINT, "--input", "{urls"], env);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain("--input: not valid JSON");
    const unknown = await runCli(["run", "social-network/comment", "--input", INPUT], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("nearest: social-network/comments");
    const noCallbacks = await runCli(
      [
        "run",
        "social-network-ad-library/ad",
        "--input",
        '{"url":"https://x.example/1"}',
        "--callback-url",
        "https://example.com/hook",
      ],
      env,
    );
    expect(noCallbacks.code).toBe(2);
    expect(noCallbacks.stderr).toContain("does not send callbacks");
    expect(sandbox.stats().tasksCreated).toBe(before);
  });

  it("reads --input from a file and from stdin", async () => {
    const file = join(dir, "input.json");
    await writeFile(file, INPUT);
    const fromFile = await runCli(["run", ENDPOINT, "--input", `@${file}`, "--json"], env);
    expect(fromFile.code).toBe(0);
    const fromStdin = await runCli(["run", ENDPOINT, "--input", "@-", "--json"], env, INPUT);
    expect(fromStdin.code).toBe(0);
    expect(JSON.parse(fromStdin.stdout).task_id).not.toBe(JSON.parse(fromFile.stdout).task_id);
  });
});

describe("svc task", () => {
  it("--all streams every record exactly once as JSONL, across many pages", async () => {
    const task = await finishedTask();
    const all = await runCli(["task", task.task_id, "--all", "--limit", "7"], env);
    expect(all.code).toBe(0);
    const records = all.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(task.result_count);
    expect(task.result_count).toBeGreaterThan(7);
    expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
  });

  it("reads one page, and the next one with --cursor", async () => {
    const task = await finishedTask();
    const first = await runCli(["task", task.task_id, "--limit", "5", "--json"], env);
    expect(first.code).toBe(0);
    const page1 = JSON.parse(first.stdout).results;
    expect(page1.items).toHaveLength(5);
    const second = await runCli(
      ["task", task.task_id, "--limit", "5", "--cursor", page1.next_cursor, "--json"],
      env,
    );
    const page2 = JSON.parse(second.stdout).results;
    expect(page2.items[0].id).not.toBe(page1.items[0].id);
    const text = await runCli(["task", task.task_id, "--limit", "2"], env);
    expect(text.stdout).toContain(`More: svc task ${task.task_id} --cursor '`);
  });

  it("exits 1 for a failed task and 2 for an unknown one", async () => {
    const failed = await runCli(
      ["run", ENDPOINT, "--input", '{"urls":["sandbox:fail"]}', "--wait", "15", "--json"],
      env,
    );
    const id = JSON.parse(failed.stdout).task_id;
    expect((await runCli(["task", id], env)).code).toBe(1);
    expect((await runCli(["task", id, "--all"], env)).code).toBe(1);
    const unknown = await runCli(["task", "tsk_nope"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("task_not_found");
  });
});

describe("svc files", () => {
  it("lists the files, and --download saves them after checking the gzip", async () => {
    const task = await finishedTask();
    const list = await runCli(["files", task.task_id, "--json"], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)[0].file_type).toBe("raw_jsonl");
    const target = join(dir, "downloads");
    const download = await runCli(["files", task.task_id, "--download", target, "--json"], env);
    expect(download.code).toBe(0);
    const [saved] = JSON.parse(download.stdout);
    expect(saved.records).toBe(task.result_count);
    const lines = gunzipSync(await readFile(saved.path))
      .toString("utf8")
      .trim()
      .split("\n");
    expect(lines).toHaveLength(task.result_count);
  });

  it("exits 2 for a task that has not succeeded", async () => {
    const slow = await runCli(
      ["run", ENDPOINT, "--input", '{"urls":["sandbox:slow"]}', "--json"],
      env,
    );
    const files = await runCli(["files", JSON.parse(slow.stdout).task_id], env);
    expect(files.code).toBe(2);
    expect(files.stderr).toContain("task_not_ready");
  });
});

describe("svc account and the environment", () => {
  it("prints the account without ever printing the key", async () => {
    const account = await runCli(["account"], env);
    expect(account.code).toBe(0);
    expect(account.stdout).toMatch(/^Key: \S+\nCredits: /);
    expect(account.stdout + account.stderr).not.toContain(env.SVC_API_KEY);
  });

  it("exits 2 without a key and 3 with a rejected one", async () => {
    const missing = await runCli(["account"], { SVC_BASE_URL: sandbox.url });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("SVC_API_KEY is not set");
    const wrong = await runCli(["account", "--json"], { ...env, SVC_API_KEY: "wrong-key-123" });
    expect(wrong.code).toBe(3);
    expect(JSON.parse(wrong.stderr).error).toMatchObject({ code: "unauthorized", status: 401 });
    expect(wrong.stderr).not.toContain("wrong-key-123");
  });

  it("exits 2 without a base URL, 4 when the backend is unreachable", async () => {
    const noUrl = await runCli(["account"], { SVC_API_KEY: "k" });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("SVC_BASE_URL is not set");
    const badFlag = await runCli(["account", "--base-url", "ftp://x"], env);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("--base-url");
    const port = await closedPort();
    const down = await runCli(["account"], { ...env, SVC_BASE_URL: `http://127.0.0.1:${port}` });
    expect(down.code).toBe(4);
    expect(down.stderr).toContain("Backend unreachable");
  });
});
