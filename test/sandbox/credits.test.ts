import { describe, expect, it } from "vitest";
import { createCreditLedger, taskCost } from "../../src/sandbox/credits.js";
import { createRateLimiter } from "../../src/sandbox/rate-limit.js";
import { endpointFixture } from "./fixtures.js";

describe("credits", () => {
  const billing = { ...endpointFixture().billing, base_credits: 1, credits_per_result: 0.3 };

  it("prices a task at base plus a price per result, exactly", () => {
    expect(taskCost(billing, 3)).toBe(1.9);
    expect(taskCost({ ...billing, base_credits: 0 }, 3)).toBe(0.9);
    expect(taskCost(billing, 0)).toBe(1);
  });

  it("keeps one balance per key, lets it go below zero once, then refuses", () => {
    const ledger = createCreditLedger(["a", "b"], 1);
    ledger.charge("a", 0.7);
    expect(ledger.balance("a")).toEqual({ balance: 0.3, used: 0.7 });
    expect(ledger.canSpend("a")).toBe(true);
    ledger.charge("a", 0.6);
    expect(ledger.balance("a")).toEqual({ balance: -0.3, used: 1.3 });
    expect(ledger.canSpend("a")).toBe(false);
    expect(ledger.balance("b")).toEqual({ balance: 1, used: 0 });
  });
});

describe("rate limiter", () => {
  it("allows a second's worth at once, then asks to retry after the refill", () => {
    let now = 0;
    const limiter = createRateLimiter(2, () => now);
    expect(limiter.take("a")).toEqual({ allowed: true });
    expect(limiter.take("a")).toEqual({ allowed: true });
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take("b")).toEqual({ allowed: true });
    now = 500;
    expect(limiter.take("a")).toEqual({ allowed: true });
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("rounds a slow refill up to whole seconds", () => {
    let now = 0;
    const limiter = createRateLimiter(0.25, () => now);
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 4 });
    now = 4000;
    expect(limiter.take("a").allowed).toBe(true);
  });

  it("never refuses when the limit is 0", () => {
    const limiter = createRateLimiter(0, () => 0);
    for (let i = 0; i < 1000; i++) expect(limiter.take("a").allowed).toBe(true);
  });
});
