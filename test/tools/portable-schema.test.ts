import { describe, expect, it } from "vitest";
import {
  describeRule,
  firstSentence,
  portableInputSchema,
} from "../../src/tools/portable-schema.js";

describe("portableInputSchema", () => {
  it("inlines local references and drops $schema and $defs", () => {
    const { schema, rules } = portableInputSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { link: { type: "string", format: "uri", description: "A link." } },
      type: "object",
      properties: { urls: { type: "array", items: { $ref: "#/$defs/link" } } },
      required: ["urls"],
      additionalProperties: false,
    });
    expect(schema).toEqual({
      type: "object",
      properties: {
        urls: { type: "array", items: { type: "string", format: "uri", description: "A link." } },
      },
      required: ["urls"],
      additionalProperties: false,
    });
    expect(rules).toEqual([]);
  });

  it("moves top-level combinators into sentences and keeps nested ones", () => {
    const { schema, rules } = portableInputSchema({
      type: "object",
      properties: {
        query: { type: "string" },
        urls: { type: "array" },
        mode: { anyOf: [{ const: "a" }, { const: "b" }] },
      },
      anyOf: [{ required: ["query"] }, { required: ["urls"] }],
      not: { required: ["mode", "urls"] },
    });
    expect(schema).not.toHaveProperty("anyOf");
    expect(schema).not.toHaveProperty("not");
    expect(schema.properties).toHaveProperty("mode.anyOf");
    expect(schema.additionalProperties).toBe(false);
    expect(rules).toEqual([
      "Give at least one of: query, urls (they can be combined).",
      'Input must also satisfy not: {"required":["mode","urls"]}.',
    ]);
  });

  it("shows the first sentence of each field description and leaves minLength 1 implicit", () => {
    const { schema } = portableInputSchema({
      type: "object",
      properties: {
        hook: {
          type: "string",
          minLength: 1,
          description: 'A URI, e.g. "https://example.com/hook". Delivery is best-effort.',
        },
        name: { type: "string", minLength: 3 },
      },
    });
    expect(schema.properties).toEqual({
      hook: { type: "string", description: 'A URI, e.g. "https://example.com/hook".' },
      name: { type: "string", minLength: 3 },
    });
  });

  it("refuses references it cannot resolve, naming them", () => {
    expect(() =>
      portableInputSchema({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }),
    ).toThrow(/#\/\$defs\/missing/);
    expect(() =>
      portableInputSchema({ type: "object", properties: { a: { $ref: "other.json#/a" } } }),
    ).toThrow(/only local references/);
  });
});

describe("describeRule", () => {
  it("words presence rules and dependencies", () => {
    expect(describeRule("oneOf", [{ required: ["a"] }, { required: ["b", "c"] }])).toBe(
      "Give exactly one of: a, b and c.",
    );
    expect(describeRule("dependentRequired", { end: ["start"] })).toBe(
      "With end, also give start.",
    );
  });
});

describe("firstSentence", () => {
  it("does not stop at abbreviations or inside an example", () => {
    expect(firstSentence('Links, e.g. ["https://a.example/x"].')).toBe(
      'Links, e.g. ["https://a.example/x"].',
    );
    expect(firstSentence("One. Two.")).toBe("One.");
    expect(firstSentence("No full stop")).toBe("No full stop");
  });
});
