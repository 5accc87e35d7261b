import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config.js";
import {
  defaultSandboxOptions,
  resolveSandboxOptions,
  SANDBOX_KNOBS,
  sandboxOptionsFrom,
  sandboxOptionsFromEnv,
} from "../../src/sandbox/index.js";

const camelCase = (flag: string) =>
  (flag.split(" ")[0] ?? "")
    .replace(/^--/, "")
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

describe("sandbox knobs", () => {
  it("describes every option once, with a flag whose camelCase is its name and a SVC_SANDBOX_ variable", () => {
    const names = SANDBOX_KNOBS.map((knob) => knob.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(Object.keys(defaultSandboxOptions()).sort());
    for (const knob of SANDBOX_KNOBS) {
      expect(camelCase(knob.flag)).toBe(knob.name);
      expect(knob.env).toMatch(/^SVC_SANDBOX_[A-Z_]+$/);
      expect(knob.description.length).toBeGreaterThan(10);
    }
  });

  it("parses every default back from its own text form", () => {
    for (const knob of SANDBOX_KNOBS) {
      const text = Array.isArray(knob.default) ? knob.default.join(",") : String(knob.default);
      expect(knob.parse(text)).toEqual(knob.default);
    }
  });

  it("defaults to the key sandbox-key and a task done within about 2 s", () => {
    const options = defaultSandboxOptions();
    expect(options.keys).toEqual(["sandbox-key"]);
    expect(options.queuedMs + options.runningMs).toBeLessThanOrEqual(2000);
    expect(options.pageLimitDefault).toBe(100);
    expect(options.pageLimitMax).toBe(1000);
    expect(options.maxBodyBytes).toBe(1024 * 1024);
  });

  it("reads the environment; SVC_SANDBOX_KEYS replaces the default key", () => {
    const options = sandboxOptionsFromEnv({
      SVC_SANDBOX_KEYS: " a, b ,,a",
      SVC_SANDBOX_RUNNING_MS: "50",
      SVC_SANDBOX_FAILURE_RATE: "0.25",
      UNRELATED: "x",
    });
    expect(options).toEqual({ keys: ["a", "b"], runningMs: 50, failureRate: 0.25 });
    expect(resolveSandboxOptions(options).queuedMs).toBe(defaultSandboxOptions().queuedMs);
  });

  it("reads flag values keyed by option name", () => {
    expect(sandboxOptionsFrom({ queuedMs: "0", startingCredits: "12.5" })).toEqual({
      queuedMs: 0,
      startingCredits: 12.5,
    });
  });

  it.each([
    [{ SVC_SANDBOX_QUEUED_MS: "soon" }, "SVC_SANDBOX_QUEUED_MS"],
    [{ SVC_SANDBOX_FAILURE_RATE: "2" }, "SVC_SANDBOX_FAILURE_RATE"],
    [{ SVC_SANDBOX_KEYS: " , " }, "SVC_SANDBOX_KEYS"],
    [{ SVC_SANDBOX_RETENTION_MS: "0" }, "SVC_SANDBOX_RETENTION_MS"],
  ])("rejects %o naming %s", (env, variable) => {
    expect(() => sandboxOptionsFromEnv(env)).toThrow(ConfigError);
    expect(() => sandboxOptionsFromEnv(env)).toThrow(new RegExp(`^${variable}: `));
  });

  it("names the flag when a flag value is bad", () => {
    expect(() => sandboxOptionsFrom({ pageLimitMax: "-1" })).toThrow(/^--page-limit-max: /);
  });

  it("refuses a default page size above the maximum", () => {
    expect(() => resolveSandboxOptions({ pageLimitDefault: 500, pageLimitMax: 100 })).toThrow(
      ConfigError,
    );
  });
});
