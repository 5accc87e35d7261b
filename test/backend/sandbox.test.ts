import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  type BackendClient,
  createBackendClient,
  InvalidRequestError,
  NotFoundError,
  waitForTask,
} from "../../src/backend/index.js";
import { loadCatalog } from "../../src/catalog/index.js";
import { loadConfig } from "../../src/config.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";

const ENDPOINT = "social-network/comments";
const INPUT = { urls: ["https://www.social-network.example/natgeo/posts/1234567890"] };

let sandbox: RunningSandbox;
let client: BackendClient;
let key: string;

beforeAll(async () => {
  sandbox = await startSandbox({ catalog: loadCatalog(), queuedMs: 20, runningMs: 80 });
  key = sandbox.keys[0] ?? "";
  client = createBackendClient({ baseUrl: sandbox.url, ...loadConfig({}).backend });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

const soon = () => Date.now() + 10_000;

describe("the backend client against the sandbox", () => {
  it("submits, waits, pages through every record once and downloads the files", async () => {
    const submitted = await client.submit(key, ENDPOINT, INPUT);
    expect(["queued", "running"]).toContain(submitted.status);
    const waited = await waitForTask(client, key, submitted.task_id, {
      deadlineMs: soon(),
      limit: 7,
      backoff: { initialMs: 20, maxMs: 50, factor: 2 },
    });
    expect(waited.task.status).toBe("succeeded");
    expect(waited.task.results?.items.length).toBeLessThanOrEqual(7);

    const ids: unknown[] = [];
    let page = waited.task.results;
    for (let reads = 0; page && reads < 1000; reads++) {
      ids.push(...page.items.map((item) => item.id));
      if (!page.has_more || page.next_cursor === null) break;
      const next = await client.getTask(key, submitted.task_id, {
        limit: 7,
        cursor: page.next_cursor,
      });
      page = next.results;
    }
    expect(ids).toHaveLength(waited.task.result_count ?? -1);
    expect(new Set(ids).size).toBe(ids.length);

    const { files } = await client.getFiles(key, submitted.task_id);
    expect(files.length).toBeGreaterThan(0);
    const lines = gunzipSync(await client.download(files[0]?.public_url ?? ""))
      .toString("utf8")
      .split("\n")
      .filter((line) => line !== "");
    expect(lines.length).toBe(waited.task.result_count);
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(ids);
  });

  it("reports a failed task with its reason", async () => {
    const submitted = await client.submit(key, ENDPOINT, { urls: ["sandbox:fail"] });
    const { task } = await waitForTask(client, key, submitted.task_id, { deadlineMs: soon() });
    expect(task.status).toBe("failed");
    expect(task.error_message).toMatch(/sandbox:fail/);
  });

  it("turns the sandbox's error answers into typed errors", async () => {
    const wrongKey = await client.getAccount("not-a-sandbox-key").catch((e: unknown) => e);
    expect(wrongKey).toBeInstanceOf(AuthenticationError);
    expect(wrongKey).toMatchObject({ status: 401, code: "unauthorized" });
    expect((wrongKey as Error).message).not.toContain("not-a-sandbox-key");

    const missing = await client.getTask(key, "no-such-task").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: "task_not_found" });

    const invalid = await client.submit(key, ENDPOINT, { urls: [] }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ status: 422, code: "invalid_input" });
    expect((invalid as InvalidRequestError).details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "urls" })]),
    );

    const unknown = await client.submit(key, "nowhere/nothing", {}).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 404, code: "endpoint_not_found" });

    const slow = await client.submit(key, ENDPOINT, { urls: ["sandbox:slow"] });
    const notReady = await client.getFiles(key, slow.task_id).catch((e: unknown) => e);
    expect(notReady).toMatchObject({ status: 409, code: "task_not_ready" });
  });

  it("reads the account, the catalog and answers a ping", async () => {
    const account = await client.getAccount(key);
    expect(account.key_id).not.toContain(key);
    expect(typeof account.credits.balance).toBe("number");
    const catalog = (await client.getCatalog(key)) as { endpoints: unknown[] };
    expect(catalog.endpoints).toHaveLength(loadCatalog().endpoints.length);
    await expect(client.ping()).resolves.toMatchObject({ reachable: true });
  });
});
