import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { generateRecord, generateRecords } from "../../src/sandbox/records.js";
import { mixSeed } from "../../src/sandbox/rng.js";
import { catalog } from "./helpers.js";

const ALL_ENDPOINT_IDS = catalog.endpoints.map((endpoint) => endpoint.public_id);

const KEYS = [
  "platform",
  "resource",
  "type",
  "id",
  "url",
  "author",
  "text",
  "metrics",
  "media",
  "published_at",
];

const ajv = new Ajv2020({ strict: false });

function split(id: string): [string, string] {
  const [platform = "", resource = ""] = id.split("/");
  return [platform, resource];
}

describe("synthetic records", () => {
  it.each(ALL_ENDPOINT_IDS)("%s: records follow the result-record shape", (endpointId) => {
    const [platform, resource] = split(endpointId);
    for (const record of generateRecords(platform, resource, 7, 0, 20)) {
      for (const key of KEYS) expect(record).toHaveProperty(key);
      expect(record.platform).toBe(platform);
      expect(record.resource).toBe(resource);
      expect(typeof record.type).toBe("string");
      expect(["string", "number"]).toContain(typeof record.id);
      expect(typeof record.url === "string" && URL.canParse(record.url)).toBe(true);
      expect(typeof record.author).toBe("object");
      expect(record.text === null || typeof record.text === "string").toBe(true);
      expect(typeof record.metrics).toBe("object");
      expect(typeof record.media).toBe("object");
      if (record.published_at !== null) {
        expect(new Date(record.published_at).toISOString()).toBe(record.published_at);
      }
      expect(JSON.parse(JSON.stringify(record))).toEqual(record);
    }
  });

  it.each(ALL_ENDPOINT_IDS)(
    "%s: a succeeded task read of its records validates against the endpoint's output_schema",
    (endpointId) => {
      const [platform, resource] = split(endpointId);
      const schema = catalog.endpoint(endpointId)?.output_schema;
      const validate = ajv.compile(schema ?? false);
      const read = (items: unknown[], status = "succeeded") => ({
        task_id: "tsk_0",
        status,
        error_message: null,
        results: { items, next_cursor: null, has_more: false },
      });
      const records = generateRecords(platform, resource, 7, 0, 20);
      expect(validate(read(records)), JSON.stringify(validate.errors)).toBe(true);
      // Records are open objects: a field the interface does not name is allowed.
      expect(validate(read(records.map((r) => ({ ...r, extra_field: 1 }))))).toBe(true);
      // The schema is not vacuous: a wrong id type or an unknown status is refused.
      expect(validate(read(records.map((r) => ({ ...r, id: {} }))))).toBe(false);
      expect(validate(read(records, "done"))).toBe(false);
    },
  );

  it("gives the same record for the same seed and index, different ones otherwise", () => {
    const first = generateRecord("social-network", "posts", 99, 3);
    expect(generateRecord("social-network", "posts", 99, 3)).toEqual(first);
    expect(generateRecord("social-network", "posts", 99, 4)).not.toEqual(first);
    expect(generateRecord("social-network", "posts", 100, 3)).not.toEqual(first);
  });

  it("gives every record of a task its own id", () => {
    const ids = generateRecords("microblog-network", "search", 5, 0, 2000).map((r) => r.id);
    expect(new Set(ids).size).toBe(2000);
  });

  it("generates any page independently of the pages before it", () => {
    const all = generateRecords("pin-network", "pins", 11, 0, 300);
    expect(generateRecords("pin-network", "pins", 11, 150, 300)).toEqual(all.slice(150));
  });

  it("is plausible for the platform: a video has views and a duration", () => {
    for (const [platform, resource] of [
      ["video-network", "videos"],
      ["short-video-network", "videos"],
      ["video-network", "shorts"],
      ["photo-network", "reels"],
    ] as const) {
      const record = generateRecord(platform, resource, 1, 0);
      expect(record.type).toBe("video");
      expect(record.metrics.views).toEqual(expect.any(Number));
      expect((record.media as Record<string, unknown>).duration_seconds).toEqual(
        expect.any(Number),
      );
    }
    const short = generateRecord("short-video-network", "videos", 1, 0).media as {
      duration_seconds: number;
    };
    expect(short.duration_seconds).toBeLessThanOrEqual(180);
  });

  it("is plausible for the platform: a job has a company, an ad has a page, a listing a price", () => {
    const job = generateRecord("professional-network", "jobs", 2, 0);
    expect(job.type).toBe("job");
    expect(job.company).toEqual({ name: expect.any(String), url: expect.any(String) });
    for (const resource of ["ad", "company-ads", "search"]) {
      const ad = generateRecord("social-network-ad-library", resource, 3, 0);
      expect(ad.type).toBe("ad");
      expect(ad.page).toEqual(
        expect.objectContaining({ id: expect.any(String), name: expect.any(String) }),
      );
    }
    const listing = generateRecord("social-network-marketplace", "search", 4, 0);
    expect(listing.type).toBe("listing");
    expect(listing.price).toEqual({ amount: expect.any(Number), currency: expect.any(String) });
    expect(generateRecord("short-video-shop", "product-reviews", 4, 0).type).toBe("review");
    expect(generateRecord("forum-network", "posts", 4, 0)).toHaveProperty("community");
  });

  it("mixes seeds so neighbouring indexes share nothing", () => {
    const seeds = new Set(Array.from({ length: 10_000 }, (_, index) => mixSeed(1, index)));
    expect(seeds.size).toBe(10_000);
  });
});
