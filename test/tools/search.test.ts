import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/index.js";
import { searchEndpoints, words } from "../../src/tools/search.js";

const catalog = loadCatalog();
const ids = (found: { public_id: string }[]) => found.map((endpoint) => endpoint.public_id);

describe("searchEndpoints", () => {
  it("without filters lists every endpoint in id order", () => {
    const found = ids(searchEndpoints(catalog.endpoints, {}));
    expect(found).toHaveLength(catalog.endpoints.length);
    expect(found).toEqual([...found].sort());
  });

  it("filters by platform, accepting underscores for dashes", () => {
    const found = ids(searchEndpoints(catalog.endpoints, { platform: "video_network" }));
    expect(found.length).toBe(
      catalog.endpoints.filter((endpoint) => endpoint.platform === "video-network").length,
    );
    expect(found.every((id) => id.startsWith("video-network/"))).toBe(true);
  });

  it("filters by tag, case-insensitively", () => {
    const tag = catalog.endpoints[0]?.tags[0] ?? "";
    const found = searchEndpoints(catalog.endpoints, { tag: tag.toUpperCase() });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((endpoint) => endpoint.tags.includes(tag))).toBe(true);
  });

  it("ranks the endpoints whose resource and platform match above the rest", () => {
    const found = ids(searchEndpoints(catalog.endpoints, { query: "video comments" }));
    expect(found.slice(0, 2).sort()).toEqual([
      "short-video-network/comments",
      "video-network/comments",
    ]);
    expect(found).toContain("social-network/comments");
    expect(found.indexOf("social-network/comments")).toBeGreaterThan(1);
  });

  it("matches singular and plural alike", () => {
    const singular = ids(searchEndpoints(catalog.endpoints, { query: "profile" }));
    const plural = ids(searchEndpoints(catalog.endpoints, { query: "profiles" }));
    expect(singular).toEqual(plural);
    expect(singular[0]).toMatch(/\/profiles$/);
  });

  it("puts an exact endpoint id or tool name first", () => {
    for (const query of ["social-network/pages", "svc_social_network_pages"]) {
      expect(ids(searchEndpoints(catalog.endpoints, { query }))[0]).toBe("social-network/pages");
    }
  });

  it("combines the query with the platform filter and leaves out non-matches", () => {
    const found = ids(
      searchEndpoints(catalog.endpoints, { platform: "photo-network", query: "reels" }),
    );
    expect(found[0]).toBe("photo-network/reels");
    expect(ids(searchEndpoints(catalog.endpoints, { query: "zzzqqq" }))).toEqual([]);
  });

  it("splits text into lower-case words without a plural s", () => {
    expect(words("Short-Video posts, HASHTAGS")).toEqual(["short", "video", "post", "hashtag"]);
  });
});
