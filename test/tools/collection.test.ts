/** The collection path over real HTTP: svc_execute, the typed tools and svc_get_task. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolProgress } from "../../src/tools/index.js";
import { dataOf, startToolHarness, type ToolHarness } from "./harness.js";

const COMMENTS = "social-network/comments";
const POST = "https://www.social-network.example/natgeo/posts/1234567890";
const SLOW = { urls: ["sandbox:slow"] };
const MAX_PAGES = 200;

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(() => h.close());

type Item = Record<string, unknown>;

/** Every record of a succeeded task, read straight from the backend in one page. */
async function allRecords(taskId: string): Promise<Item[]> {
  const task = await h.backend.getTask(h.key, taskId, { limit: 1000 });
  expect(task.results?.has_more).toBe(false);
  return task.results?.items ?? [];
}

/** Follows next_cursor with svc_get_task until has_more is false; returns every item seen. */
async function pageThrough(
  harness: ToolHarness,
  first: Record<string, unknown>,
  args: Record<string, unknown>,
  onPage: (items: Item[]) => void = () => {},
): Promise<Item[]> {
  const seen = [...(first.items as Item[])];
  onPage(first.items as Item[]);
  let page = first;
  for (let reads = 0; page.has_more === true; reads++) {
    expect(reads).toBeLessThan(MAX_PAGES);
    expect(typeof page.next_cursor).toBe("string");
    page = dataOf(
      await harness.call("svc_get_task", {
        task_id: first.task_id,
        cursor: page.next_cursor,
        ...args,
      }),
    );
    onPage(page.items as Item[]);
    seen.push(...(page.items as Item[]));
  }
  expect(page.next_cursor).toBeNull();
  return seen;
}

describe("svc_execute", () => {
  it("submits, waits, pages through every record once, lists the files and charges credits", async () => {
    const before = dataOf(await h.call("svc_account", {}));
    const created = h.sandbox.stats().tasksCreated;

    const first = dataOf(
      await h.call("svc_execute", {
        endpoint: COMMENTS,
        input: { urls: [POST] },
        wait_seconds: 10,
        result_limit: 10,
      }),
    );
    expect(first).toMatchObject({ status: "succeeded", has_more: true });
    expect(first.items).toHaveLength(10);
    const expected = await allRecords(first.task_id as string);
    expect(first.estimated_credits).toBeCloseTo(expected.length * 0.3, 6);

    const seen = await pageThrough(h, first, { limit: 30 });
    expect(seen).toEqual(expected);

    const files = await h.call("svc_get_files", { task_id: first.task_id });
    const data = dataOf(files);
    const listed = data.files as { file_type: string; public_url: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((file) => file.file_type === "raw_jsonl")).toBe(true);
    const links = files.content.filter((block) => block.type === "resource_link");
    expect(links.map((link) => link.uri)).toEqual(listed.map((file) => file.public_url));

    const after = dataOf(await h.call("svc_account", {}));
    const used = (account: Record<string, unknown>) => (account.credits as { used: number }).used;
    expect(used(after) - used(before)).toBeCloseTo(first.estimated_credits as number, 6);
    expect(h.sandbox.stats().tasksCreated - created).toBe(1);
  });

  it("returns a still-running task with the next step instead of waiting past wait_seconds", async () => {
    const pending = dataOf(
      await h.call("svc_execute", { endpoint: COMMENTS, input: SLOW, wait_seconds: 0 }),
    );
    expect(["queued", "running"]).toContain(pending.status);
    expect(pending).not.toHaveProperty("items");
    expect(pending.next_step).toMatch(/svc_get_task/);
    expect(pending.next_step).toMatch(/do not resubmit/i);

    const done = dataOf(
      await h.call("svc_get_task", { task_id: pending.task_id, wait_seconds: 10, limit: 5 }),
    );
    expect(done.status).toBe("succeeded");
    expect(done.items).toHaveLength(5);
  });

  it("reports a failed task with its error_message", async () => {
    const failed = dataOf(
      await h.call("svc_execute", {
        endpoint: COMMENTS,
        input: { urls: ["sandbox:fail"] },
        wait_seconds: 10,
      }),
    );
    expect(failed.status).toBe("failed");
    expect(failed.error_message).toMatch(/sandbox:fail/);
    expect(failed).not.toHaveProperty("items");
  });

  it("returns an empty result as succeeded with no records and no cursor", async () => {
    const empty = dataOf(
      await h.call("svc_execute", {
        endpoint: COMMENTS,
        input: { urls: ["sandbox:empty"] },
        wait_seconds: 10,
      }),
    );
    expect(empty).toMatchObject({ status: "succeeded", items: [], has_more: false });
    expect(empty.next_cursor).toBeNull();
  });

  it("sends a progress notification at each poll while it waits", async () => {
    const updates: ToolProgress[] = [];
    const done = dataOf(
      await h.call(
        "svc_execute",
        { endpoint: COMMENTS, input: SLOW, wait_seconds: 10 },
        { onProgress: (update) => updates.push(update) },
      ),
    );
    expect(done.status).toBe("succeeded");
    expect(updates.length).toBeGreaterThanOrEqual(2);
    const values = updates.map((update) => update.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect(updates.at(-1)?.message).toMatch(/succeeded/);
  });

  it("keeps waiting when a progress notification cannot be sent", async () => {
    const done = dataOf(
      await h.call(
        "svc_execute",
        { endpoint: COMMENTS, input: { urls: ["sandbox:slow", "progress"] }, wait_seconds: 10 },
        {
          onProgress: () => {
            throw new Error("connection gone");
          },
        },
      ),
    );
    expect(done.status).toBe("succeeded");
  });

  it("stops waiting when cancelled, leaving exactly one task, which still completes", async () => {
    const created = h.sandbox.stats().tasksCreated;
    const controller = new AbortController();
    const result = dataOf(
      await h.call(
        "svc_execute",
        { endpoint: COMMENTS, input: { urls: ["sandbox:slow", "cancelled"] }, wait_seconds: 30 },
        {
          signal: controller.signal,
          onProgress: (update) => {
            if (update.progress >= 2) controller.abort();
          },
        },
      ),
    );
    expect(controller.signal.aborted).toBe(true);
    expect(["queued", "running"]).toContain(result.status);
    expect(result.next_step).toMatch(/svc_get_task/);
    expect(h.sandbox.stats().tasksCreated - created).toBe(1);

    const later = dataOf(
      await h.call("svc_get_task", { task_id: result.task_id, wait_seconds: 10 }),
    );
    expect(later.status).toBe("succeeded");
    expect(h.sandbox.stats().tasksCreated - created).toBe(1);
  });
});

describe("typed tools", () => {
  it("return what svc_execute returns for the same input", async () => {
    const input = { urls: [POST] };
    const typed = dataOf(await h.call("svc_social_network_comments", input));
    const compact = dataOf(await h.call("svc_execute", { endpoint: COMMENTS, input }));
    expect(Object.keys(typed).sort()).toEqual(Object.keys(compact).sort());
    expect(typed.task_id).not.toBe(compact.task_id);
    // Same input, same records; only the task (and so its cursor and next step) differs.
    const blank = { task_id: "", next_cursor: "", next_step: "" };
    expect({ ...typed, ...blank }).toEqual({ ...compact, ...blank });
    expect(typed.items).toHaveLength(h.config.resultLimit.default);
  });

  it("wait the configured default, then hand the task back to be read later", async () => {
    expect(dataOf(await h.call("svc_social_network_comments", SLOW)).status).toBe("succeeded");
    const { maxSeconds } = h.config.wait;
    const impatient = await startToolHarness({
      config: { ...h.config, wait: { defaultSeconds: 0, maxSeconds } },
    });
    try {
      const pending = dataOf(await impatient.call("svc_social_network_comments", SLOW));
      expect(["queued", "running"]).toContain(pending.status);
      expect(pending.next_step).toMatch(/svc_get_task/);
      expect(impatient.sandbox.stats().tasksCreated).toBe(1);
    } finally {
      await impatient.close();
    }
  });
});

describe("svc_get_task", () => {
  it("projects records to the dotted fields asked for", async () => {
    const run = dataOf(
      await h.call("svc_execute", { endpoint: COMMENTS, input: { urls: [POST] }, result_limit: 3 }),
    );
    const full = run.items as Item[];
    const projected = dataOf(
      await h.call("svc_get_task", {
        task_id: run.task_id,
        limit: 3,
        fields: ["id", "author.username"],
      }),
    );
    expect(projected.items).toEqual(
      full.map((item) => ({ id: item.id, author: { username: (item.author as Item).username } })),
    );
  });
});

describe("the inline byte budget", () => {
  let small: ToolHarness;
  beforeAll(async () => {
    small = await startToolHarness({ config: { ...h.config, inlineMaxBytes: 1024 } });
  });
  afterAll(() => small.close());

  it("cuts pages to the budget and the cursor still leads to every record exactly once", async () => {
    const first = dataOf(
      await small.call("svc_execute", {
        endpoint: "social-network-ad-library/search",
        input: { query: "running shoes", results_limit: 25 },
        wait_seconds: 10,
      }),
    );
    expect(first.status).toBe("succeeded");
    const sizes: number[] = [];
    const seen = await pageThrough(small, first, { limit: 20 }, (items) => {
      sizes.push(items.length);
      expect(items.length).toBeGreaterThan(0);
      if (items.length > 1) {
        expect(Buffer.byteLength(JSON.stringify(items))).toBeLessThanOrEqual(1024);
      }
    });
    expect(Math.max(...sizes)).toBeLessThan(20);
    const task = await small.backend.getTask(small.key, first.task_id as string, { limit: 1000 });
    expect(seen).toEqual(task.results?.items);
    expect(seen).toHaveLength(25);
  });
});

describe("logs", () => {
  it("never hold the API key", () => {
    expect(h.logs.length).toBeGreaterThan(0);
    expect(h.logs.filter((line) => line.includes(h.key))).toEqual([]);
  });
});
