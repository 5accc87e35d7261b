import { describe, expect, it } from "vitest";
import { loadCatalog, type Violation } from "../../src/catalog/index.js";

const catalog = loadCatalog();

const PAGES_FIELDS = "query, urls, usernames, results_limit, callback_url";
const SEARCH = "social-network-marketplace/search";
const AT = { query: "bike", latitude: 30.2672, longitude: -97.7431 };

function violations(id: string, input: unknown): Violation[] {
  const result = catalog.validate(id, input);
  return result.valid ? [] : result.violations;
}

describe("each bound of the interface, on both sides", () => {
  const cases: Array<[string, string, Record<string, unknown>, Violation[]]> = [
    [
      "results_limit 0",
      SEARCH,
      { ...AT, results_limit: 0 },
      [{ path: "results_limit", message: "results_limit must be at least 1 (got 0)" }],
    ],
    ["results_limit 1", SEARCH, { ...AT, results_limit: 1 }, []],
    ["results_limit 2000", SEARCH, { ...AT, results_limit: 2000 }, []],
    [
      "results_limit 2001",
      SEARCH,
      { ...AT, results_limit: 2001 },
      [{ path: "results_limit", message: "results_limit must be at most 2000 (got 2001)" }],
    ],
    [
      "results_limit 1.5",
      SEARCH,
      { ...AT, results_limit: 1.5 },
      [{ path: "results_limit", message: "results_limit must be a whole number (got 1.5)" }],
    ],
    [
      "latitude -90.0001",
      SEARCH,
      { ...AT, latitude: -90.0001 },
      [{ path: "latitude", message: "latitude must be at least -90 (got -90.0001)" }],
    ],
    ["latitude -90", SEARCH, { ...AT, latitude: -90 }, []],
    ["latitude 90", SEARCH, { ...AT, latitude: 90 }, []],
    [
      "latitude 91",
      SEARCH,
      { ...AT, latitude: 91 },
      [{ path: "latitude", message: "latitude must be at most 90 (got 91)" }],
    ],
    [
      "longitude -181",
      SEARCH,
      { ...AT, longitude: -181 },
      [{ path: "longitude", message: "longitude must be at least -180 (got -181)" }],
    ],
    ["longitude -180", SEARCH, { ...AT, longitude: -180 }, []],
    ["longitude 180", SEARCH, { ...AT, longitude: 180 }, []],
    [
      "longitude 180.5",
      SEARCH,
      { ...AT, longitude: 180.5 },
      [{ path: "longitude", message: "longitude must be at most 180 (got 180.5)" }],
    ],
    [
      "min_price -0.01",
      SEARCH,
      { ...AT, min_price: -0.01 },
      [{ path: "min_price", message: "min_price must be at least 0 (got -0.01)" }],
    ],
    ["min_price 0", SEARCH, { ...AT, min_price: 0 }, []],
    [
      "max_price -1",
      SEARCH,
      { ...AT, max_price: -1 },
      [{ path: "max_price", message: "max_price must be at least 0 (got -1)" }],
    ],
    ["max_price 0", SEARCH, { ...AT, max_price: 0 }, []],
    [
      "radius_km 0",
      SEARCH,
      { ...AT, radius_km: 0 },
      [{ path: "radius_km", message: "radius_km must be greater than 0 (got 0)" }],
    ],
    ["radius_km 0.1", SEARCH, { ...AT, radius_km: 0.1 }, []],
    [
      "latitude as text",
      SEARCH,
      { ...AT, latitude: "30" },
      [{ path: "latitude", message: 'latitude must be a number (got "30")' }],
    ],
  ];
  it.each(cases)("%s", (_, id, input, expected) => {
    expect(violations(id, input)).toEqual(expected);
  });
});

describe("each structural rule of the interface", () => {
  const cases: Array<[string, string, unknown, Violation[]]> = [
    [
      "unknown field",
      "social-network/pages",
      { query: "coffee", foo: 1 },
      [{ path: "foo", message: `unknown field "foo": this endpoint accepts only ${PAGES_FIELDS}` }],
    ],
    [
      "missing required field",
      "social-network-ad-library/search",
      {},
      [{ path: "query", message: 'missing required field "query"' }],
    ],
    [
      "missing required fields, every one",
      SEARCH,
      { query: "bike" },
      [
        { path: "latitude", message: 'missing required field "latitude"' },
        { path: "longitude", message: 'missing required field "longitude"' },
      ],
    ],
    [
      "empty string",
      "social-network-ad-library/company-search",
      { query: "" },
      [{ path: "query", message: "query must not be empty" }],
    ],
    [
      "empty string in an array",
      "social-network/comments",
      { urls: ["https://a.example/p", ""] },
      [{ path: "urls[1]", message: "urls[1] must not be empty" }],
    ],
    [
      "empty array",
      "social-network-marketplace/item",
      { urls: [] },
      [{ path: "urls", message: "urls must list at least 1 item (got an empty list)" }],
    ],
    [
      "array given as a string",
      "social-network/comments",
      { urls: "https://a.example/p" },
      [{ path: "urls", message: 'urls must be a list (got "https://a.example/p")' }],
    ],
    [
      "none of the anyOf alternatives",
      "social-network/pages",
      { results_limit: 5 },
      [{ path: "(root)", message: "provide at least one of query, urls, usernames" }],
    ],
    [
      "none of the alternatives on a designed endpoint",
      "photo-network/posts",
      {},
      [{ path: "(root)", message: "provide at least one of usernames, urls" }],
    ],
    [
      "callback_url that is not a URI",
      "social-network/comments",
      {
        urls: ["https://a.example/p"],
        callback_url: "example.com/hook",
      },
      [
        {
          path: "callback_url",
          message:
            'callback_url must be an absolute URI such as https://example.com/hook (got "example.com/hook")',
        },
      ],
    ],
    [
      "empty callback_url, reported once",
      "social-network/pages",
      { query: "x", callback_url: "" },
      [{ path: "callback_url", message: "callback_url must not be empty" }],
    ],
    [
      "callback_url where callbacks are not supported",
      "social-network-marketplace/item",
      {
        urls: ["https://a.example/item/1"],
        callback_url: "https://example.com/hook",
      },
      [
        {
          path: "callback_url",
          message: 'unknown field "callback_url": this endpoint accepts only urls',
        },
      ],
    ],
    [
      "input that is not an object",
      "social-network/comments",
      ["https://a.example/p"],
      [{ path: "(root)", message: "the input must be an object (got a list)" }],
    ],
    [
      "value outside an enum",
      "professional-network/jobs",
      { query: "x", workplace_type: "moon" },
      [
        {
          path: "workplace_type",
          message: 'workplace_type must be one of "on_site", "remote", "hybrid" (got "moon")',
        },
      ],
    ],
  ];
  it.each(cases)("%s", (_, id, input, expected) => {
    expect(violations(id, input)).toEqual(expected);
  });

  it("reports every violation at once", () => {
    const found = violations("social-network/pages", {
      query: "",
      urls: [],
      usernames: [""],
      results_limit: 0,
      callback_url: "nope",
      extra: true,
    });
    expect(found.map((v) => v.path)).toEqual([
      "extra",
      "query",
      "urls",
      "usernames[0]",
      "results_limit",
      "callback_url",
    ]);
  });

  it("accepts a valid input and returns it as data", () => {
    const input = { urls: ["https://a.example/p"], callback_url: "https://example.com/hook" };
    expect(catalog.validate("social-network/comments", input)).toEqual({
      valid: true,
      data: input,
    });
  });
});

describe("names and estimates", () => {
  it.each([
    "social-network-marketplace/location-search",
    "svc_social_network_marketplace_location_search",
    "social_network_marketplace_location_search",
    " SVC_Social_Network_Marketplace_Location_Search ",
  ])("finds the endpoint by %j", (name) => {
    expect(catalog.endpoint(name)?.public_id).toBe("social-network-marketplace/location-search");
  });

  it("refuses an unknown endpoint naming the nearest ids", () => {
    expect(catalog.endpoint("photo-network/coments")).toBeUndefined();
    expect(() => catalog.validate("photo-network/coments", {})).toThrow(
      'unknown endpoint "photo-network/coments"; nearest: photo-network/comments',
    );
  });

  it.each([
    ["social-network-ad-library/ad", { url: "https://x.example/ad" }, 1, 0.6],
    ["social-network-marketplace/item", { urls: ["a", "b", "c"] }, 3, 1.8],
    ["social-network-marketplace/search", AT, 100, 70],
    ["social-network-marketplace/search", { ...AT, results_limit: 7 }, 7, 4.9],
    ["social-network-ad-library/company-search", { query: "acme" }, 10, 5],
    ["social-network/comments", { urls: ["a"] }, 100, 30],
    ["photo-network/followers-count", { usernames: ["a", "b"], urls: ["c"] }, 3, 0.6],
    ["social-network/pages", { query: "coffee" }, 10, 5],
    ["social-network/pages", { query: "coffee", results_limit: 3 }, 3, 1.5],
  ])("estimates %s %j as %i results, %d credits", (id, input, results, credits) => {
    expect(catalog.estimate(id, input)).toEqual({ results, credits });
  });
});
