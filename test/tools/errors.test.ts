/** Every failure is an isError result the model can act on, and bad input never reaches the backend. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, json, startScriptedServer } from "../backend/scripted-server.js";
import { dataOf, startToolHarness, type ToolHarness, textOf } from "./harness.js";

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(() => h.close());

/** Runs `call`, expects an isError result, and checks that no task was created meanwhile. */
async function rejectedUnsent(name: string, args: unknown): Promise<string> {
  const created = h.sandbox.stats().tasksCreated;
  const result = await h.call(name, args);
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(h.sandbox.stats().tasksCreated).toBe(created);
  return textOf(result);
}

describe("invalid input", () => {
  it("lists every violation by path with the endpoint's input schema, and sends nothing", async () => {
    const text = await rejectedUnsent("svc_execute", {
      endpoint: "social-network/comments",
      input: { urls: [], colour: "red" },
    });
    expect(text).toMatch(/nothing was sent/);
    expect(text).toMatch(/^- urls\b/m);
    expect(text).toMatch(/^- .*colour/m);
    expect(text).toContain('Input schema of social-network/comments: {"$schema"');
  });

  it("enforces the rule the portable schema cannot carry (one of query, urls, usernames)", async () => {
    const compact = await rejectedUnsent("svc_execute", {
      endpoint: "social-network/pages",
      input: { results_limit: 5 },
    });
    const typed = await rejectedUnsent("svc_social_network_pages", { results_limit: 5 });
    for (const text of [compact, typed]) {
      for (const field of ["query", "urls", "usernames"]) expect(text).toContain(field);
    }
  });

  it("names each violation of a typed tool's arguments", async () => {
    const text = await rejectedUnsent("svc_social_network_marketplace_search", {
      query: "bike",
      latitude: 100,
      radius_km: 0,
      extra: true,
    });
    for (const field of ["latitude", "longitude", "radius_km", "extra"]) {
      expect(text).toMatch(new RegExp(`^- .*${field}`, "m"));
    }
  });

  it("checks the tools' own arguments against their bounds", async () => {
    const text = await rejectedUnsent("svc_execute", {
      endpoint: "social-network/comments",
      input: { urls: ["https://x.example/p/1"] },
      wait_seconds: 99,
      result_limit: 0,
    });
    expect(text).toMatch(/^- wait_seconds\b.*50/m);
    expect(text).toMatch(/^- result_limit\b.*1/m);
    expect(await rejectedUnsent("svc_execute", { input: {} })).toMatch(/endpoint/);
    expect(await rejectedUnsent("svc_get_task", { fields: ["a..b"] })).toMatch(/task_id/);
    expect(await rejectedUnsent("svc_get_task", { task_id: "t", fields: ["a..b"] })).toMatch(
      /fields\[0\]/,
    );
    expect(await rejectedUnsent("svc_account", "not an object")).toMatch(/Invalid arguments/);
  });

  it("names the nearest endpoint ids for an unknown endpoint", async () => {
    const text = await rejectedUnsent("svc_execute", {
      endpoint: "social-network/coments",
      input: {},
    });
    expect(text).toMatch(/Unknown endpoint "social-network\/coments"/);
    expect(text).toContain("social-network/comments");
  });
});

describe("task reads", () => {
  it("says a task that does not exist was not found", async () => {
    const result = await h.call("svc_get_task", { task_id: "tsk_missing" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Task not found: tsk_missing/);
  });

  it("gives the status of a task whose files are not ready yet", async () => {
    const pending = dataOf(
      await h.call("svc_execute", {
        endpoint: "social-network/comments",
        input: { urls: ["sandbox:slow"] },
        wait_seconds: 0,
      }),
    );
    const result = await h.call("svc_get_files", { task_id: pending.task_id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/is (queued|running): files exist only once it has succeeded/);
  });

  it("says why a failed task has no files", async () => {
    const failed = dataOf(
      await h.call("svc_execute", {
        endpoint: "social-network/comments",
        input: { urls: ["sandbox:fail"] },
        wait_seconds: 10,
      }),
    );
    const result = await h.call("svc_get_files", { task_id: failed.task_id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/is failed: .*It failed: .*sandbox:fail/);
  });

  it("treats another key's task as not found", async () => {
    const run = dataOf(
      await h.call("svc_execute", {
        endpoint: "social-network/comments",
        input: { urls: ["https://x.example/p/2"] },
        wait_seconds: 0,
      }),
    );
    const result = await h.call("svc_get_task", { task_id: run.task_id }, { key: "sandbox-other" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toContain("sandbox-other");
  });
});

describe("an unreachable backend", () => {
  let down: ToolHarness;
  beforeAll(async () => {
    down = await startToolHarness({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
  });
  afterAll(() => down.close());

  it("gives a clear isError for a submit, which created nothing", async () => {
    const result = await down.call("svc_execute", {
      endpoint: "social-network/comments",
      input: { urls: ["https://x.example/p/3"] },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^connection_error: Backend unreachable .*ECONNREFUSED/);
    expect(textOf(result)).toMatch(/try again shortly/);
    expect(textOf(result)).not.toContain(down.key);
  });

  it("gives a clear isError for reads", async () => {
    for (const [name, args] of [
      ["svc_account", {}],
      ["svc_get_task", { task_id: "tsk_1" }],
      ["svc_get_files", { task_id: "tsk_1" }],
    ] as const) {
      const result = await down.call(name, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/connection_error/);
    }
  });
});

describe("a submit whose outcome is unknown", () => {
  it("says so, is not retried, and tells the agent not to resubmit blindly", async () => {
    const silent = await startScriptedServer();
    silent.handle(() => {}); // accepts the submit and never answers
    const harness = await startToolHarness({
      baseUrl: silent.url,
      config: { ...h.config, backend: { ...h.config.backend, headersTimeoutMs: 200 } },
    });
    try {
      const result = await harness.call("svc_execute", {
        endpoint: "social-network/comments",
        input: { urls: ["https://x.example/p/4"] },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^submit_outcome_unknown: /);
      expect(textOf(result)).toMatch(/Do not resubmit blindly: check svc_account/);
      expect(silent.requests.filter((request) => request.method === "POST")).toHaveLength(1);
    } finally {
      await harness.close();
      await silent.close();
    }
  });

  it("after a submit, a failed read still returns the task_id with the next step", async () => {
    const flaky = await startScriptedServer();
    flaky.handle((req, res) => {
      if (req.method === "POST") json(res, 202, { task_id: "tsk_flaky", status: "queued" });
      else json(res, 500, { error: { code: "internal", message: "store offline" } });
    });
    const harness = await startToolHarness({ baseUrl: flaky.url });
    try {
      const data = dataOf(
        await harness.call("svc_execute", {
          endpoint: "social-network/comments",
          input: { urls: ["https://x.example/p/5"] },
        }),
      );
      expect(data).toMatchObject({ task_id: "tsk_flaky", status: "queued" });
      expect(data.next_step).toMatch(/reading it failed \(internal: store offline\)/);
      expect(data.next_step).toMatch(/Do not resubmit/);
      expect(flaky.requests.filter((request) => request.method === "POST")).toHaveLength(1);
    } finally {
      await harness.close();
      await flaky.close();
    }
  });
});
