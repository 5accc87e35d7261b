import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULTS, loadConfig } from "../src/config.js";

describe("loadConfig", () => {
  it("gives the documented defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config.port).toBe(DEFAULTS.port);
    expect(config.host).toBe("127.0.0.1");
    expect(config.baseUrl).toBeUndefined();
    expect(config.wait).toEqual({ defaultSeconds: 20, maxSeconds: 50 });
    expect(config.resultLimit).toEqual({ default: 20, max: 100 });
  });

  it("reads lists and trims a trailing slash from the base URL", () => {
    const config = loadConfig({
      SVC_BASE_URL: "http://127.0.0.1:4010/",
      SVC_ALLOWED_ORIGINS: " https://a.example , https://b.example,",
    });
    expect(config.baseUrl).toBe("http://127.0.0.1:4010");
    expect(config.allowedOrigins).toEqual(["https://a.example", "https://b.example"]);
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ SVC_BASE_URL: "not a url" }, "SVC_BASE_URL"],
    [{ SVC_BASE_URL: "ftp://example.com" }, "SVC_BASE_URL"],
    [{ SVC_BASE_URL: "https://user:secret@example.com" }, "SVC_BASE_URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ SVC_WAIT_DEFAULT_SECONDS: "60" }, "SVC_WAIT_DEFAULT_SECONDS"],
  ])("rejects %o naming %s", (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}: `));
  });

  it("never echoes credentials embedded in a base URL", () => {
    expect(() => loadConfig({ SVC_BASE_URL: "https://user:secret@example.com" })).toThrow(
      /^(?!.*secret)/,
    );
  });
});
