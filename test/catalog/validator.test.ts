import { describe, expect, it } from "vitest";
import { createSchemaValidator, nearestNames } from "../../src/catalog/index.js";
import { pointerToPath } from "../../src/catalog/messages.js";

describe("createSchemaValidator on a schema of its own", () => {
  const validate = createSchemaValidator({
    type: "object",
    properties: {
      endpoint: { type: "string", minLength: 1 },
      input: {
        type: "object",
        properties: { tags: { type: "array", items: { type: "string" }, maxItems: 2 } },
        additionalProperties: false,
      },
      wait_seconds: { type: "number", minimum: 0, maximum: 50 },
      fields: { type: "array", uniqueItems: true, items: { type: "string", pattern: "^[a-z.]+$" } },
      when: { type: "string", format: "date" },
    },
    required: ["endpoint"],
    additionalProperties: false,
  });

  it("names nested paths the way a model writes them", () => {
    const result = validate({
      endpoint: "x",
      input: { tags: ["a", 2, "c"], other: 1 },
      wait_seconds: 60,
    });
    expect(result).toEqual({
      valid: false,
      violations: [
        { path: "input.other", message: 'unknown field "other": input accepts only tags' },
        { path: "input.tags", message: "input.tags must list at most 2 items" },
        { path: "input.tags[1]", message: "input.tags[1] must be a string (got 2)" },
        { path: "wait_seconds", message: "wait_seconds must be at most 50 (got 60)" },
      ],
    });
  });

  it("explains patterns, repeated items and formats", () => {
    const result = validate({ endpoint: "x", fields: ["a", "a", "B"], when: "31/01/2024" });
    expect(result.valid ? [] : result.violations).toEqual([
      { path: "fields[2]", message: 'fields[2] must match the pattern ^[a-z.]+$ (got "B")' },
      { path: "fields", message: "fields must not repeat items (items 0 and 1 are the same)" },
      {
        path: "when",
        message:
          'when must be a date in the form YYYY-MM-DD, such as 2024-01-31 (got "31/01/2024")',
      },
    ]);
  });

  it("names unknown and dependent fields under unevaluatedProperties and dependentRequired", () => {
    const strict = createSchemaValidator({
      type: "object",
      properties: { min_price: { type: "number" }, currency: { type: "string" } },
      dependentRequired: { min_price: ["currency"] },
      unevaluatedProperties: false,
    });
    expect(strict({ min_price: 1, colour: "red" })).toEqual({
      valid: false,
      violations: [
        {
          path: "currency",
          message: 'missing field "currency", required when "min_price" is given',
        },
        {
          path: "colour",
          message: 'unknown field "colour": this endpoint accepts only min_price, currency',
        },
      ],
    });
  });

  it("shares one compiled function between schemas that differ only in wording", () => {
    const a = createSchemaValidator({ type: "string", description: "one" });
    const b = createSchemaValidator({ type: "string", description: "two" });
    expect(a("x")).toEqual({ valid: true, data: "x" });
    expect(b(1)).toEqual({
      valid: false,
      violations: [{ path: "(root)", message: "the input must be a string (got 1)" }],
    });
  });

  it("keeps a field named like an annotation apart from the annotation", () => {
    const withTitle = createSchemaValidator({
      type: "object",
      properties: { title: { type: "string" } },
      additionalProperties: false,
    });
    const without = createSchemaValidator({
      type: "object",
      properties: {},
      additionalProperties: false,
    });
    expect(withTitle({ title: "x" }).valid).toBe(true);
    expect(without({ title: "x" }).valid).toBe(false);
  });
});

describe("pointerToPath", () => {
  it.each([
    ["", "(root)"],
    ["/urls/0", "urls[0]"],
    ["/input/tags/2", "input.tags[2]"],
    ["/a~1b/c~0d", '["a/b"]["c~d"]'],
    ["/odd key", '["odd key"]'],
  ])("%j -> %s", (pointer, path) => {
    expect(pointerToPath(pointer)).toBe(path);
  });
});

describe("nearestNames", () => {
  const ids = [
    "photo-network/comments",
    "photo-network/posts",
    "video-network/comments",
    "video-network/videos",
    "social-network/pages",
  ];

  it.each([
    ["photo-network/coments", "photo-network/comments"],
    ["svc_video_network_videos", "video-network/videos"],
    ["video_network_comment", "video-network/comments"],
    ["pages", "social-network/pages"],
  ])("ranks %s nearest to %s", (query, nearest) => {
    expect(nearestNames(query, ids)[0]).toBe(nearest);
  });

  it("returns at most `count` distinct names", () => {
    expect(nearestNames("network", ids, 2)).toHaveLength(2);
    expect(nearestNames("x", ["a", "a", "b"], 5)).toEqual(["a", "b"]);
    expect(nearestNames("x", [])).toEqual([]);
  });
});
