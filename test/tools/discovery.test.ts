/** Discovery and account tools over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalog, dataOf, startToolHarness, type ToolHarness, textOf } from "./harness.js";

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(() => h.close());

describe("svc_list_platforms", () => {
  it("lists every platform with its tools and the catalog's schema_version", async () => {
    const data = dataOf(await h.call("svc_list_platforms", {}));
    expect(data.schema_version).toBe(catalog.schemaVersion);
    const platforms = data.platforms as {
      platform: string;
      endpoint_count: number;
      tools: string[];
    }[];
    expect(platforms.map((p) => p.platform)).toEqual(catalog.platforms.map((p) => p.platform));
    expect(platforms.reduce((sum, p) => sum + p.endpoint_count, 0)).toBe(catalog.endpoints.length);
    expect(platforms.flatMap((p) => p.tools).sort()).toEqual(
      catalog.endpoints.map((e) => e.tool_name).sort(),
    );
  });
});

describe("svc_search_endpoints", () => {
  it("returns compact entries, best first, up to the limit", async () => {
    const data = dataOf(
      await h.call("svc_search_endpoints", { query: "video comments", limit: 2 }),
    );
    const entries = data.endpoints as Record<string, unknown>[];
    expect(entries).toHaveLength(2);
    expect(data.total).toBeGreaterThan(2);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(
        ["credits_per_result", "id", "summary", "title", "tool"].sort(),
      );
      expect(entry.id).toMatch(/\/comments$/);
      expect(entry.summary).not.toMatch(/\. [A-Z]/);
    }
  });

  it("names the nearest platforms for an unknown one", async () => {
    const result = await h.call("svc_search_endpoints", { platform: "video-netwrk" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Unknown platform "video-netwrk"\. Nearest: video-network/);
  });
});

describe("svc_describe_endpoint", () => {
  it("gives the input schema, billing with an estimate, examples, docs address and flags", async () => {
    for (const name of ["social-network/comments", "svc_social_network_comments"]) {
      const data = dataOf(await h.call("svc_describe_endpoint", { endpoint: name }));
      const endpoint = catalog.endpoint("social-network/comments");
      expect(data.id).toBe("social-network/comments");
      expect(data.input_schema).toEqual(endpoint?.input_schema);
      expect(data.examples).toEqual(endpoint?.examples);
      expect(data.docs_url).toBe(`${h.config.docsUrl}social-network/comments`);
      expect(data.billing).toMatchObject({
        credits_per_result: 0.3,
        estimate: catalog.estimate("social-network/comments", endpoint?.examples[0]?.input ?? {}),
      });
      expect(data).toMatchObject({
        supports_pagination: true,
        supports_files: true,
        supports_callback: true,
      });
    }
  });

  it("names the nearest ids for an unknown endpoint", async () => {
    const result = await h.call("svc_describe_endpoint", { endpoint: "svc_video_network_comment" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Nearest ids: video-network\/comments/);
  });
});

describe("svc_account", () => {
  it("shows the key's fingerprint, credits and limits, and this server's bounds", async () => {
    const data = dataOf(await h.call("svc_account", {}));
    expect(data.authenticated).toBe(true);
    expect(typeof data.key_id).toBe("string");
    expect(JSON.stringify(data)).not.toContain(h.key);
    expect(data.credits).toMatchObject({ balance: expect.any(Number), used: expect.any(Number) });
    expect(data.server).toEqual({
      wait_seconds: { default: 20, max: 50 },
      result_limit: { default: 20, max: 100 },
      page_limit: { default: 20, max: 100 },
      inline_max_bytes: h.config.inlineMaxBytes,
    });
  });

  it("says when the key is not accepted, without showing it", async () => {
    const result = await h.call("svc_account", {}, { key: "not-a-valid-key" });
    const data = dataOf(result);
    expect(data.authenticated).toBe(false);
    expect(textOf(result)).not.toContain("not-a-valid-key");
  });
});
