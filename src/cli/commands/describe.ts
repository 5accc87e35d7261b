/** `svc describe <endpoint>`: one endpoint's input fields, price and examples (local catalog). */
import type { Command } from "commander";
import { loadCatalog, nearestNames, UnknownEndpointError } from "../../catalog/index.js";
import type { EndpointDescriptor, JsonSchema } from "../../catalog/types.js";
import { loadConfig } from "../../config.js";
import { describeEndpoint } from "../../tools/describe-endpoint.js";
import { portableInputSchema } from "../../tools/portable-schema.js";
import { type CommonFlags, withJson } from "../options.js";
import { createOutput, table } from "../output.js";

function typeText(schema: JsonSchema): string {
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const types = [schema.type ?? "any"].flat().map(String);
  return types
    .map((type) => {
      if (type === "array" && typeof schema.items === "object" && schema.items !== null) {
        return `array of ${typeText(schema.items as JsonSchema)}`;
      }
      return type === "string" && typeof schema.format === "string"
        ? `${type} (${schema.format})`
        : type;
    })
    .join(" or ");
}

const BOUNDS: [keyword: string, label: string][] = [
  ["minimum", ">="],
  ["exclusiveMinimum", ">"],
  ["maximum", "<="],
  ["exclusiveMaximum", "<"],
  ["minLength", "length >="],
  ["maxLength", "length <="],
  ["minItems", "items >="],
  ["maxItems", "items <="],
  ["pattern", "matches"],
  ["default", "default"],
];

function fieldRow(name: string, schema: JsonSchema, required: boolean): string[] {
  const bounds = BOUNDS.filter(([keyword]) => schema[keyword] !== undefined).map(
    ([keyword, label]) => `${label} ${JSON.stringify(schema[keyword])}`,
  );
  const facts = [typeText(schema), required ? "required" : "optional", ...bounds].join(", ");
  const description = typeof schema.description === "string" ? schema.description : "";
  return [`  ${name}`, facts, description];
}

function humanText(endpoint: EndpointDescriptor, described: ReturnType<typeof describeEndpoint>) {
  const { schema, rules } = portableInputSchema(endpoint.input_schema);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const { billing } = described;
  const supports = (["pagination", "files", "callback"] as const).filter(
    (name) => endpoint[`supports_${name}`],
  );
  const lines = [
    `${endpoint.public_id}: ${endpoint.title}`,
    `Tool name: ${endpoint.tool_name}    Docs: ${described.docs_url}`,
    "",
    endpoint.description,
    "",
    `Input (POST /v1/${endpoint.public_id}):`,
    table(Object.entries(properties).map(([name, s]) => fieldRow(name, s, required.has(name)))),
    ...rules.map((rule) => `  ${rule}`),
    "",
    `Price: ${billing.credits_per_result} credits per result + ${billing.base_credits} base; ` +
      `about ${billing.estimate.credits} credits for ${billing.estimate.results} results ` +
      `(${billing.estimate.for}).`,
    `Supports: ${supports.join(", ") || "none"}. Tags: ${endpoint.tags.join(", ")}.`,
  ];
  if (endpoint.examples.length > 0) lines.push("", "Examples:");
  for (const example of endpoint.examples) {
    const input = JSON.stringify(example.input).replaceAll("'", "'\\''");
    lines.push(
      `  # ${example.title}`,
      `  svc run ${endpoint.public_id} --input '${input}' --wait 30`,
    );
  }
  return lines.join("\n");
}

export function registerDescribe(program: Command): void {
  withJson(
    program
      .command("describe")
      .description("show an endpoint's input fields, price and examples (local catalog)")
      .argument("<endpoint>", "endpoint id (platform/resource) or tool name"),
  ).action((name: string, flags: CommonFlags) => {
    const catalog = loadCatalog();
    const endpoint = catalog.endpoint(name);
    if (endpoint === undefined) {
      const ids = catalog.endpoints.map((e) => e.public_id);
      throw new UnknownEndpointError(name, nearestNames(name, ids));
    }
    const described = describeEndpoint(catalog, loadConfig(), endpoint);
    createOutput(flags.json === true).result(described, () => humanText(endpoint, described));
  });
}
