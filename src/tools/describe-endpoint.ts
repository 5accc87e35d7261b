/** svc_describe_endpoint: everything needed to call one endpoint correctly. */
import type { Catalog, EndpointDescriptor } from "../catalog/types.js";
import type { Config } from "../config.js";
import { defineTool } from "./define-tool.js";
import { unknownEndpointResult } from "./errors.js";
import { structuredResult } from "./results.js";
import { ANY_OBJECT, endpointInput, objectSchema } from "./schemas.js";
import type { ToolDefinition, ToolDeps } from "./types.js";

interface DescribeArgs {
  endpoint: string;
}

export function docsUrl(config: Config, endpointId: string): string {
  return `${config.docsUrl.replace(/\/*$/, "/")}${endpointId}`;
}

/** The description of one endpoint; the estimate is for its first example's input. */
export function describeEndpoint(catalog: Catalog, config: Config, endpoint: EndpointDescriptor) {
  const example = endpoint.examples[0];
  const estimate = catalog.estimate(endpoint.public_id, example?.input ?? {});
  return {
    id: endpoint.public_id,
    tool: endpoint.tool_name,
    title: endpoint.title,
    description: endpoint.description,
    input_schema: endpoint.input_schema,
    billing: {
      ...endpoint.billing,
      estimate: { ...estimate, for: example ? "examples[0].input" : "empty input" },
    },
    examples: endpoint.examples,
    docs_url: docsUrl(config, endpoint.public_id),
    tags: endpoint.tags,
    supports_pagination: endpoint.supports_pagination,
    supports_files: endpoint.supports_files,
    supports_callback: endpoint.supports_callback,
  };
}

export function createDescribeEndpointTool({ catalog, config }: ToolDeps): ToolDefinition {
  return defineTool<DescribeArgs>({
    name: "svc_describe_endpoint",
    title: "Describe endpoint",
    description:
      "An endpoint's input schema, billing with a credit estimate, examples, docs address and " +
      "supports_* flags. Next: svc_execute.",
    inputSchema: {
      type: "object",
      properties: {
        endpoint: endpointInput("Endpoint id (platform/resource) or typed tool name"),
      },
      required: ["endpoint"],
      additionalProperties: false,
    },
    outputSchema: objectSchema(
      { id: { type: "string" }, input_schema: ANY_OBJECT, billing: ANY_OBJECT },
      ["id", "input_schema", "billing"],
    ),
    annotations: { readOnlyHint: true, openWorldHint: false },
    spendsCredits: false,
    kind: "compact",
    async handler({ endpoint: name }) {
      const endpoint = catalog.endpoint(name.trim());
      if (!endpoint) return unknownEndpointResult(catalog, name);
      return structuredResult(describeEndpoint(catalog, config, endpoint));
    },
  });
}
