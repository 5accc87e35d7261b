import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CATALOG_DIR,
  type EndpointDescriptor,
  loadCatalog,
} from "../../src/catalog/index.js";

const catalog = loadCatalog();

/** The interface's platform table, as written there. */
const PLATFORM_TABLE: Record<string, string[]> = {
  "social-network": ["comments", "pages", "posts"],
  "social-network-ad-library": ["ad", "company-ads", "company-search", "search"],
  "social-network-marketplace": ["item", "location-search", "search"],
  "photo-network": ["comments", "followers-count", "posts", "reels", "search"],
  "professional-network": ["companies", "jobs", "posts", "profiles"],
  "pin-network": ["pins", "profiles", "search", "user-pins"],
  "forum-network": ["comments", "posts", "search", "community-posts"],
  "thread-network": ["posts", "profiles", "user-posts"],
  "short-video-network": ["comments", "hashtags", "profiles", "search", "videos"],
  "short-video-shop": ["product", "product-reviews", "products", "search", "user-showcase"],
  "microblog-network": ["posts", "profiles", "search", "user-posts"],
  "video-network": [
    "channel-videos",
    "channels",
    "comments",
    "search",
    "shorts",
    "transcripts",
    "videos",
  ],
};

/** The interface's pricing table: credits per result and estimate basis. */
const PRICE_TABLE: Record<string, [number, { input?: string; results: number }]> = {
  "social-network-ad-library/ad": [0.6, { input: "url", results: 1 }],
  "social-network-ad-library/company-ads": [0.5, { results: 100 }],
  "social-network-ad-library/company-search": [0.5, { results: 10 }],
  "social-network-ad-library/search": [0.5, { results: 100 }],
  "social-network-marketplace/item": [0.6, { input: "urls", results: 1 }],
  "social-network-marketplace/location-search": [0.3, { results: 10 }],
  "social-network-marketplace/search": [0.7, { results: 100 }],
  "social-network/comments": [0.3, { results: 100 }],
};

const COMMON_BILLING = {
  mode: "base_plus_result",
  base_credits: 0,
  unit: "result",
  unit_size: 1,
  allow_overage: 1,
  empty_result_policy: "base_only",
  dynamic_price: true,
};

function endpoint(id: string): EndpointDescriptor {
  const found = catalog.endpoint(id);
  if (found === undefined) throw new Error(`no endpoint ${id}`);
  return found;
}

type PropertySchema = Record<string, unknown> & { type?: string; items?: PropertySchema };

function propertiesOf(descriptor: EndpointDescriptor): Record<string, PropertySchema> {
  return descriptor.input_schema.properties as Record<string, PropertySchema>;
}

describe("catalog contents against the interface", () => {
  it("has exactly the 51 endpoint ids of the platform table, in its order", () => {
    const expected = Object.entries(PLATFORM_TABLE).flatMap(([platform, resources]) =>
      resources.map((resource) => `${platform}/${resource}`),
    );
    expect(expected).toHaveLength(51);
    expect(catalog.endpoints.map((e) => e.public_id)).toEqual(expected);
    expect(catalog.platforms.map((p) => p.platform)).toEqual(Object.keys(PLATFORM_TABLE));
  });

  it("describes each platform with its endpoint count and tool names", () => {
    for (const platform of catalog.platforms) {
      const own = catalog.endpoints.filter((e) => e.platform === platform.platform);
      expect(platform.endpoint_count).toBe(own.length);
      expect(platform.tools).toEqual(own.map((e) => e.tool_name));
      expect(platform.title.length).toBeGreaterThan(0);
    }
  });

  it("prices the 8 published endpoints exactly as the pricing table", () => {
    for (const [id, [credits, basis]] of Object.entries(PRICE_TABLE)) {
      expect(endpoint(id).billing, id).toEqual({
        ...COMMON_BILLING,
        credits_per_result: credits,
        estimate_basis: basis,
        price_source: "service",
      });
    }
  });

  it("prices every other endpoint in the same form, marked as a default", () => {
    const others = catalog.endpoints.filter((e) => !(e.public_id in PRICE_TABLE));
    expect(others).toHaveLength(43);
    for (const e of others) {
      expect(e.billing, e.public_id).toMatchObject({ ...COMMON_BILLING, price_source: "default" });
      expect(e.billing.credits_per_result).toBeGreaterThan(0);
    }
  });

  it("supports callbacks on social-network comments and pages, never on ad-library or marketplace", () => {
    expect(endpoint("social-network/comments").supports_callback).toBe(true);
    expect(endpoint("social-network/pages").supports_callback).toBe(true);
    const closed = catalog.endpoints.filter((e) =>
      ["social-network-ad-library", "social-network-marketplace"].includes(e.platform),
    );
    expect(closed).toHaveLength(7);
    for (const e of closed) expect(e.supports_callback, e.public_id).toBe(false);
    const open = catalog.endpoints.filter((e) => !closed.includes(e));
    for (const e of open) expect(e.supports_callback, e.public_id).toBe(true);
  });

  it("defines callback_url (format uri) exactly where callbacks are supported", () => {
    for (const e of catalog.endpoints) {
      const callback = propertiesOf(e).callback_url;
      expect(callback !== undefined, e.public_id).toBe(e.supports_callback);
      if (callback) expect(callback).toMatchObject({ type: "string", format: "uri" });
    }
  });

  it("names tools svc_{platform}_{resource} with - as _, unique and at most 54 characters", () => {
    const names = catalog.endpoints.map((e) => e.tool_name);
    expect(new Set(names).size).toBe(51);
    for (const e of catalog.endpoints) {
      expect(e.tool_name).toBe(`svc_${e.platform}_${e.resource}`.replaceAll("-", "_"));
      expect(e.tool_name.length).toBeLessThanOrEqual(54);
      expect(e.public_id).toBe(`${e.platform}/${e.resource}`);
    }
  });

  it("marks every endpoint async, stable, paginated, with files", () => {
    for (const e of catalog.endpoints) {
      expect(e).toMatchObject({
        execution_mode: "async",
        status: "stable",
        supports_pagination: true,
        supports_files: true,
      });
    }
  });
});

describe("input schemas of the 11 endpoints the interface defines", () => {
  const DEFINED: Record<string, { fields: string[]; required: string[]; anyOf?: string[] }> = {
    "social-network-ad-library/ad": { fields: ["url"], required: ["url"] },
    "social-network-ad-library/company-ads": {
      fields: [
        "page_id",
        "country",
        "end_date",
        "language",
        "media_type",
        "sort_by",
        "start_date",
        "status",
        "results_limit",
      ],
      required: ["page_id"],
    },
    "social-network-ad-library/company-search": { fields: ["query"], required: ["query"] },
    "social-network-ad-library/search": {
      fields: [
        "query",
        "ad_type",
        "country",
        "end_date",
        "media_type",
        "search_type",
        "sort_by",
        "start_date",
        "status",
        "results_limit",
      ],
      required: ["query"],
    },
    "social-network-marketplace/item": { fields: ["urls"], required: ["urls"] },
    "social-network-marketplace/location-search": { fields: ["query"], required: ["query"] },
    "social-network-marketplace/search": {
      fields: [
        "query",
        "latitude",
        "longitude",
        "availability",
        "condition",
        "date_listed",
        "delivery_method",
        "sort_by",
        "min_price",
        "max_price",
        "radius_km",
        "results_limit",
      ],
      required: ["query", "latitude", "longitude"],
    },
    "social-network/comments": { fields: ["urls", "callback_url"], required: ["urls"] },
    "social-network/pages": {
      fields: ["query", "urls", "usernames", "results_limit", "callback_url"],
      required: [],
      anyOf: ["query", "urls", "usernames"],
    },
  };

  it.each(Object.entries(DEFINED))("%s has exactly the fields it defines", (id, spec) => {
    const schema = endpoint(id).input_schema as {
      required?: string[];
      anyOf?: { required: string[] }[];
    };
    expect(Object.keys(propertiesOf(endpoint(id))).sort()).toEqual([...spec.fields].sort());
    expect(schema.required ?? []).toEqual(spec.required);
    expect(schema.anyOf?.map((branch) => branch.required)).toEqual(
      spec.anyOf?.map((name) => [name]),
    );
  });

  it("bounds marketplace search numbers as written", () => {
    const p = propertiesOf(endpoint("social-network-marketplace/search"));
    expect(p.latitude).toMatchObject({ type: "number", minimum: -90, maximum: 90 });
    expect(p.longitude).toMatchObject({ type: "number", minimum: -180, maximum: 180 });
    expect(p.min_price).toMatchObject({ type: "number", minimum: 0 });
    expect(p.max_price).toMatchObject({ type: "number", minimum: 0 });
    expect(p.radius_km).toMatchObject({ type: "number", exclusiveMinimum: 0 });
  });
});

describe("input conventions on all 51 endpoints", () => {
  it.each(catalog.endpoints.map((e) => [e.public_id, e] as const))("%s", (_, e) => {
    expect(e.input_schema.type).toBe("object");
    expect(e.input_schema.additionalProperties).toBe(false);
    for (const [name, field] of Object.entries(propertiesOf(e))) {
      expect(typeof field.description, name).toBe("string");
      expect(field.description, name).toMatch(/e\.g\. /);
      if (field.type === "string") expect(field.minLength, name).toBe(1);
      if (field.type === "array") {
        expect(field.minItems, name).toBe(1);
        expect(field.items, name).toMatchObject({ type: "string", minLength: 1 });
      }
      if (name === "results_limit") {
        expect(field).toMatchObject({ type: "integer", minimum: 1, maximum: 2000 });
      }
      if (["urls", "usernames", "hashtags", "communities"].includes(name)) {
        expect(field.type, name).toBe("array");
      }
    }
    expect(e.examples.length).toBeGreaterThan(0);
    expect(e.description.split(". ")[0]?.length).toBeLessThanOrEqual(160);
  });

  it("keeps one shape per resource kind across platforms", () => {
    const fieldsOf = (e: EndpointDescriptor) => Object.keys(propertiesOf(e));
    const accountsOrLinks = (e: EndpointDescriptor) =>
      (e.input_schema.anyOf as { required: string[] }[] | undefined)?.map((b) => b.required[0]);
    for (const e of catalog.endpoints) {
      const fields = fieldsOf(e);
      if (["comments", "videos", "transcripts", "pins"].includes(e.resource)) {
        expect(e.input_schema.required, e.public_id).toEqual(["urls"]);
      }
      if (["profiles", "user-posts", "user-pins", "channels"].includes(e.resource)) {
        expect(accountsOrLinks(e), e.public_id).toEqual(["usernames", "urls"]);
      }
      if (e.resource === "search") {
        expect(e.input_schema.required, e.public_id).toContain("query");
        expect(fields, e.public_id).toContain("results_limit");
      }
    }
    expect(fieldsOf(endpoint("short-video-network/hashtags"))).toContain("hashtags");
    expect(fieldsOf(endpoint("video-network/transcripts"))).toEqual([
      "urls",
      "language",
      "callback_url",
    ]);
  });
});

describe("examples and the catalog's own schema", () => {
  const examples = catalog.endpoints.flatMap((e) =>
    e.examples.map((example) => [e.public_id, example.title, example.input] as const),
  );

  it.each(examples)("%s example %s validates", (id, _, input) => {
    expect(catalog.validate(id, input)).toEqual({ valid: true, data: input });
  });

  it("the whole catalog document validates against catalog.schema.json", () => {
    const schema = JSON.parse(
      readFileSync(join(DEFAULT_CATALOG_DIR, "catalog.schema.json"), "utf8"),
    );
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    const valid = validate(catalog.document);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it("gives every tag from one small vocabulary", () => {
    const tags = new Set(catalog.endpoints.flatMap((e) => e.tags));
    for (const tag of ["comments", "profiles", "search", "video", "ads", "commerce", "jobs"]) {
      expect(tags.has(tag), tag).toBe(true);
    }
    expect(tags.size).toBeLessThanOrEqual(30);
  });
});
