import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_TOOL_NAME_LENGTH } from "../../src/tools/index.js";
import { COMPACT_TOOL_NAMES } from "../helpers/contract.js";
import { catalog, definitionsOnly } from "./harness.js";

const definitions = definitionsOnly();
const { registry } = definitions;
afterAll(() => definitions.close());

const COMBINATORS = ["anyOf", "oneOf", "allOf"];

function keysAnywhere(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(keysAnywhere);
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => [key, ...keysAnywhere(value)]);
}

describe("the compact tools", () => {
  it("are the seven tools, each with a title, a description and explicit annotations", () => {
    expect(registry.compact.map((tool) => tool.name)).toEqual(COMPACT_TOOL_NAMES);
    for (const tool of registry.compact) {
      expect(tool.title.length).toBeGreaterThan(0);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema.type).toBe("object");
      expect(tool.annotations.readOnlyHint).toBe(tool.name !== "svc_execute");
      expect(tool.spendsCredits).toBe(tool.name === "svc_execute");
      expect(tool.kind).toBe(
        ["svc_get_task", "svc_get_files"].includes(tool.name) ? "read" : "compact",
      );
      expect(registry.byName(tool.name)).toBe(tool);
    }
  });

  it("bound their numeric inputs by the configuration", () => {
    const execute = registry.byName("svc_execute");
    expect(execute?.inputSchema.properties).toMatchObject({
      wait_seconds: { minimum: 0, maximum: 50, default: 20 },
      result_limit: { minimum: 1, maximum: 100, default: 20 },
    });
  });
});

describe("every typed tool", () => {
  it("exists once per catalog endpoint, named after it", () => {
    expect(registry.typed.map((tool) => tool.endpointId)).toEqual(
      catalog.endpoints.map((endpoint) => endpoint.public_id),
    );
    for (const tool of registry.typed) {
      const endpoint = catalog.endpoint(tool.endpointId ?? "");
      expect(tool.name).toBe(endpoint?.tool_name);
      expect(tool.platform).toBe(endpoint?.platform);
      expect(tool.name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
      expect(tool.kind).toBe("typed");
      expect(tool.spendsCredits).toBe(true);
    }
  });

  it("has a portable input schema: no top-level combinator, no $ref, no $schema", () => {
    for (const tool of registry.typed) {
      for (const keyword of COMBINATORS) expect(tool.inputSchema).not.toHaveProperty(keyword);
      expect(keysAnywhere(tool.inputSchema)).not.toContain("$ref");
      expect(keysAnywhere(tool.inputSchema)).not.toContain("$schema");
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema.additionalProperties).toBe(false);
    }
  });

  it("takes exactly the catalog's input fields, with the same required ones", () => {
    for (const tool of registry.typed) {
      const schema = catalog.endpoint(tool.endpointId ?? "")?.input_schema ?? {};
      const fields = Object.keys((schema.properties ?? {}) as object).sort();
      expect(Object.keys(tool.inputSchema.properties as object).sort()).toEqual(fields);
      expect(tool.inputSchema.required ?? []).toEqual(schema.required ?? []);
    }
  });

  it("states its price and any rule the portable schema cannot carry", () => {
    for (const tool of registry.typed) {
      const endpoint = catalog.endpoint(tool.endpointId ?? "");
      expect(tool.description).toContain(endpoint?.description);
      expect(tool.description).toContain(
        `${endpoint?.billing.credits_per_result} credits per result`,
      );
    }
    expect(registry.byName("svc_social_network_pages")?.description).toContain(
      "Give at least one of: query, urls, usernames (they can be combined).",
    );
  });

  it("shares svc_execute's output schema and annotations", () => {
    const execute = registry.byName("svc_execute");
    for (const tool of registry.typed) {
      expect(tool.outputSchema).toBe(execute?.outputSchema);
      expect(tool.annotations).toBe(execute?.annotations);
    }
  });
});

describe("the output schemas", () => {
  it("compile with the draft-07 validator MCP clients use", () => {
    const validator = new AjvJsonSchemaValidator();
    for (const tool of registry.compact) {
      expect(() => validator.getValidator(tool.outputSchema)).not.toThrow();
    }
  });
});
