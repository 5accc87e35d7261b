import { describe, expect, it } from "vitest";
import { fittingCount, projectRecord } from "../../src/tools/records.js";

const record = {
  id: "c1",
  text: "hello",
  author: { name: "Ada", handle: "ada", followers: 10 },
  media: [{ url: "https://cdn.example/1.jpg" }, { url: "https://cdn.example/2.jpg" }],
  metrics: { likes: 3 },
};

describe("projectRecord", () => {
  it("keeps only the named dotted paths, nested as in the record", () => {
    expect(projectRecord(record, ["id", "author.name", "metrics.likes"])).toEqual({
      id: "c1",
      author: { name: "Ada" },
      metrics: { likes: 3 },
    });
  });

  it("reads array elements by index and leaves out paths that do not exist", () => {
    expect(projectRecord(record, ["media.1.url", "author.missing", "nope.deeper"])).toEqual({
      media: { 1: { url: "https://cdn.example/2.jpg" } },
    });
  });

  it("merges a whole object and one of its paths without changing the record", () => {
    const before = structuredClone(record);
    expect(projectRecord(record, ["author", "author.name"])).toEqual({ author: record.author });
    expect(projectRecord(record, ["author.name", "author"])).toEqual({ author: record.author });
    expect(record).toEqual(before);
  });

  it("keeps null values, which are data, and ignores inherited properties", () => {
    expect(projectRecord({ url: null }, ["url", "constructor", "toString"])).toEqual({ url: null });
  });
});

describe("fittingCount", () => {
  const items = Array.from({ length: 10 }, (_, index) => ({ index, text: "x".repeat(90) }));
  const size = (list: unknown[]) => Buffer.byteLength(JSON.stringify(list));

  it("keeps every record when the whole array fits", () => {
    expect(fittingCount(items, size(items))).toBe(10);
  });

  it("keeps the longest prefix whose JSON array fits the budget", () => {
    for (const budget of [150, 300, 555, 999]) {
      const count = fittingCount(items, budget);
      expect(size(items.slice(0, count))).toBeLessThanOrEqual(budget);
      expect(size(items.slice(0, count + 1))).toBeGreaterThan(budget);
    }
  });

  it("keeps one record even when it alone is over the budget, so a cursor always moves", () => {
    expect(fittingCount(items, 10)).toBe(1);
    expect(fittingCount([], 10)).toBe(0);
  });

  it("counts bytes, not characters", () => {
    const wide = [{ text: "é".repeat(40) }, { text: "é".repeat(40) }];
    expect(fittingCount(wide, size(wide) - 1)).toBe(1);
  });
});
