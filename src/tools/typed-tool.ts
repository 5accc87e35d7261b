/**
 * One typed tool per catalog endpoint (`svc_{platform}_{resource}`): the REST body fields as
 * arguments, through the same collection path as svc_execute. Arguments are validated there,
 * against the full catalog schema, so rules the portable schema cannot show still hold.
 */
import type { EndpointDescriptor } from "../catalog/types.js";
import { COLLECTION_ANNOTATIONS, runCollection } from "./collection.js";
import { defineTool } from "./define-tool.js";
import { portableInputSchema } from "./portable-schema.js";
import { TASK_OUTPUT_SCHEMA } from "./schemas.js";
import type { ToolDefinition, ToolDeps } from "./types.js";

function priceSentence(endpoint: EndpointDescriptor): string {
  const { base_credits, credits_per_result } = endpoint.billing;
  const base = base_credits > 0 ? ` plus ${base_credits} per task` : "";
  return `Price: ${credits_per_result} credits per result${base}.`;
}

export function createTypedTool(deps: ToolDeps, endpoint: EndpointDescriptor): ToolDefinition {
  const { config } = deps;
  const { schema, rules } = portableInputSchema(endpoint.input_schema);
  return defineTool<Record<string, unknown>>({
    name: endpoint.tool_name,
    title: endpoint.title,
    description: [endpoint.description, ...rules, priceSentence(endpoint)].join(" "),
    inputSchema: schema,
    outputSchema: TASK_OUTPUT_SCHEMA,
    annotations: COLLECTION_ANNOTATIONS,
    spendsCredits: true,
    kind: "typed",
    platform: endpoint.platform,
    endpointId: endpoint.public_id,
    // Every check (types, bounds, unknown fields, anyOf) is the catalog's, in runCollection.
    validate: (value) => ({ valid: true, data: value as Record<string, unknown> }),
    handler: (input, ctx) =>
      runCollection(deps, ctx, {
        endpoint,
        input,
        waitSeconds: config.wait.defaultSeconds,
        resultLimit: config.resultLimit.default,
      }),
  });
}
