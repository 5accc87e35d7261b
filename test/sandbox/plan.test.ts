import { describe, expect, it } from "vitest";
import { defaultSandboxOptions } from "../../src/sandbox/knobs.js";
import { FAIL_MESSAGE, planTask, RANDOM_FAIL_MESSAGE, recordSeed } from "../../src/sandbox/plan.js";
import { catalog } from "./helpers.js";

const options = { ...defaultSandboxOptions(), runningMs: 100, slowMs: 9000 };
const never = () => 0.99;

function plan(endpointId: string, input: Record<string, unknown>, random = never, failureRate = 0) {
  const endpoint = catalog.endpoint(endpointId);
  if (!endpoint) throw new Error(`no endpoint ${endpointId}`);
  return planTask(catalog, endpoint, input, { ...options, failureRate }, random);
}

describe("task plans", () => {
  it("yields results_limit records, or one per named url/username, or the endpoint's default", () => {
    expect(plan("microblog-network/search", { query: "a", results_limit: 7 }).resultCount).toBe(7);
    expect(plan("microblog-network/search", { query: "a" }).resultCount).toBe(100);
    expect(plan("microblog-network/profiles", { usernames: ["a", "b", "c"] }).resultCount).toBe(3);
    expect(plan("social-network-ad-library/ad", { url: "https://a.example" }).resultCount).toBe(1);
  });

  it("fails on sandbox:fail anywhere in the input, even nested in an array", () => {
    const failing = plan("microblog-network/profiles", { usernames: ["a", "sandbox:fail"] });
    expect(failing.failure).toBe(FAIL_MESSAGE);
    expect(plan("microblog-network/profiles", { usernames: ["a"] }).failure).toBeUndefined();
  });

  it("gives zero records for sandbox:empty and the slow duration for sandbox:slow", () => {
    expect(
      plan("microblog-network/search", { query: "sandbox:empty", results_limit: 9 }).resultCount,
    ).toBe(0);
    expect(plan("microblog-network/search", { query: "sandbox:slow" }).runningMs).toBe(9000);
    expect(plan("microblog-network/search", { query: "quick" }).runningMs).toBe(100);
  });

  it("runs sandbox:slow for about 10 s, and other tasks within about 2 s, by default", () => {
    const endpoint = catalog.endpoint("microblog-network/search");
    if (!endpoint) throw new Error("no endpoint microblog-network/search");
    const byDefault = (query: string) =>
      planTask(catalog, endpoint, { query }, defaultSandboxOptions(), never);
    const slow = byDefault("sandbox:slow");
    expect(slow.queuedMs + slow.runningMs).toBeGreaterThanOrEqual(9_000);
    expect(slow.queuedMs + slow.runningMs).toBeLessThanOrEqual(11_000);
    const ordinary = byDefault("coffee");
    expect(ordinary.queuedMs + ordinary.runningMs).toBeLessThanOrEqual(2_000);
  });

  it("fails at random at the failure rate, using the given randomness", () => {
    expect(plan("microblog-network/search", { query: "a" }, () => 0.2, 0.25).failure).toBe(
      RANDOM_FAIL_MESSAGE,
    );
    expect(
      plan("microblog-network/search", { query: "a" }, () => 0.3, 0.25).failure,
    ).toBeUndefined();
    expect(plan("microblog-network/search", { query: "a" }, () => 0, 0).failure).toBeUndefined();
  });

  it("seeds records from the endpoint and the input, whatever the key order or callback", () => {
    const seed = recordSeed("microblog-network/search", { query: "a", results_limit: 5 });
    expect(recordSeed("microblog-network/search", { results_limit: 5, query: "a" })).toBe(seed);
    expect(
      recordSeed("microblog-network/search", {
        query: "a",
        results_limit: 5,
        callback_url: "http://h",
      }),
    ).toBe(seed);
    expect(recordSeed("microblog-network/search", { query: "b", results_limit: 5 })).not.toBe(seed);
    expect(recordSeed("thread-network/user-posts", { query: "a", results_limit: 5 })).not.toBe(
      seed,
    );
  });
});
