/** svc_execute: submit a collection to any endpoint, wait for it, return the first records. */
import { COLLECTION_ANNOTATIONS, runCollection } from "./collection.js";
import { defineTool } from "./define-tool.js";
import { unknownEndpointResult } from "./errors.js";
import { endpointInput, limitInput, TASK_OUTPUT_SCHEMA, waitSecondsInput } from "./schemas.js";
import type { ToolDefinition, ToolDeps } from "./types.js";

interface ExecuteArgs {
  endpoint: string;
  input: Record<string, unknown>;
  wait_seconds?: number;
  result_limit?: number;
}

export function createExecuteTool(deps: ToolDeps): ToolDefinition {
  const { catalog, config } = deps;
  return defineTool<ExecuteArgs>({
    name: "svc_execute",
    title: "Run a collection",
    description:
      "Submit a collection (spends credits) and wait for it. Invalid input is rejected unsent " +
      "with every violation. Returns task_id, status, estimated_credits and, once succeeded, " +
      "the first records with next_cursor. If still running: svc_get_task, never resubmit.",
    inputSchema: {
      type: "object",
      properties: {
        endpoint: endpointInput("Endpoint id, e.g. video-network/comments"),
        input: { type: "object", description: "Request body, per svc_describe_endpoint" },
        wait_seconds: waitSecondsInput(config.wait.maxSeconds, config.wait.defaultSeconds),
        result_limit: limitInput(
          config.resultLimit.max,
          config.resultLimit.default,
          "Max records returned inline",
        ),
      },
      required: ["endpoint", "input"],
      additionalProperties: false,
    },
    outputSchema: TASK_OUTPUT_SCHEMA,
    annotations: COLLECTION_ANNOTATIONS,
    spendsCredits: true,
    kind: "compact",
    async handler(args, ctx) {
      const endpoint = catalog.endpoint(args.endpoint.trim());
      if (!endpoint) return unknownEndpointResult(catalog, args.endpoint);
      return runCollection(deps, ctx, {
        endpoint,
        input: args.input,
        waitSeconds: args.wait_seconds ?? config.wait.defaultSeconds,
        resultLimit: args.result_limit ?? config.resultLimit.default,
      });
    },
  });
}
