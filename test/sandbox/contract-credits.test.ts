import { afterEach, describe, expect, it } from "vitest";
import type { Catalog } from "../../src/catalog/types.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import {
  account,
  call,
  catalog,
  finishedTask,
  OTHER_KEY,
  startTestSandbox,
  submit,
  waitForStatus,
} from "./helpers.js";

describe("sandbox contract: credits", () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it("charges base plus price per result on success, to the submitting key only", async () => {
    sandbox = await startTestSandbox({ startingCredits: 1000 });
    const endpoint = catalog.endpoint("microblog-network/search");
    const { base_credits, credits_per_result } = endpoint?.billing ?? {
      base_credits: 0,
      credits_per_result: 0,
    };
    const before = await account(sandbox);
    expect(before.credits).toEqual({ balance: 1000, used: 0 });
    await finishedTask(sandbox, "microblog-network/search", { query: "coffee", results_limit: 30 });
    const cost = Math.round((base_credits + credits_per_result * 30) * 1e6) / 1e6;
    const after = await account(sandbox);
    expect(after.credits.used).toBeCloseTo(cost, 9);
    expect(after.credits.balance).toBeCloseTo(1000 - cost, 9);
    expect((await account(sandbox, OTHER_KEY)).credits).toEqual({ balance: 1000, used: 0 });
  });

  it("charges the base only for an empty result and nothing for a failure", async () => {
    sandbox = await startTestSandbox({ startingCredits: 1000 });
    const base = catalog.endpoint("microblog-network/search")?.billing.base_credits ?? 0;
    await finishedTask(sandbox, "microblog-network/search", { query: "sandbox:empty" });
    expect((await account(sandbox)).credits.used).toBe(base);
    await finishedTask(sandbox, "microblog-network/search", {
      query: "sandbox:fail",
      results_limit: 500,
    });
    expect((await account(sandbox)).credits.used).toBe(base);
  });

  it("charges a non-zero base on an empty result, nothing on a failure (running total)", async () => {
    const priced: Catalog = {
      ...catalog,
      endpoint(name) {
        const endpoint = catalog.endpoint(name);
        return endpoint && { ...endpoint, billing: { ...endpoint.billing, base_credits: 2 } };
      },
    };
    sandbox = await startSandbox({ catalog: priced, keys: ["k"], queuedMs: 5, runningMs: 5 });
    const input = (query: string) => ({ body: { query, results_limit: 4 }, key: "k" });
    const read = async () =>
      (await call(sandbox as RunningSandbox, "GET", "/v1/account", { key: "k" })).body;
    for (const [query, used] of [
      ["sandbox:empty", 2],
      ["sandbox:fail", 2],
      ["tea", 2 + 2 + 4 * 0.5],
    ] as const) {
      const submitted = await call(sandbox, "POST", "/v1/microblog-network/search", input(query));
      await waitForStatus(sandbox, submitted.body.task_id, ["succeeded", "failed"], "k");
      expect((await read()).credits.used).toBe(used);
    }
  });

  it("answers 402 insufficient_credits once a key has nothing left, creating no task", async () => {
    sandbox = await startTestSandbox({ startingCredits: 1 });
    await finishedTask(sandbox, "microblog-network/search", { query: "x", results_limit: 100 });
    expect((await account(sandbox)).credits.balance).toBeLessThan(0);
    const created = sandbox.stats().tasksCreated;
    const refused = await submit(sandbox, "microblog-network/search", { query: "y" });
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      error: { code: "insufficient_credits", message: expect.any(String) },
    });
    expect(sandbox.stats().tasksCreated).toBe(created);
    expect(
      (await submit(sandbox, "microblog-network/search", { query: "y" }, OTHER_KEY)).status,
    ).toBe(202);
    expect((await call(sandbox, "GET", "/v1/account")).status).toBe(200);
  });
});
