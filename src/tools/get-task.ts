/** svc_get_task: a task's status and one page of its records; optionally waits for it. */
import { readTaskResult } from "./collection.js";
import { defineTool } from "./define-tool.js";
import { FIELD_PATH_PATTERN } from "./records.js";
import { limitInput, TASK_ID_INPUT, TASK_OUTPUT_SCHEMA, waitSecondsInput } from "./schemas.js";
import type { ToolDefinition, ToolDeps } from "./types.js";

interface GetTaskArgs {
  task_id: string;
  limit?: number;
  cursor?: string;
  wait_seconds?: number;
  fields?: string[];
}

const MAX_FIELDS = 50;

export function createGetTaskTool(deps: ToolDeps): ToolDefinition {
  const { config } = deps;
  return defineTool<GetTaskArgs>({
    name: "svc_get_task",
    title: "Read a task",
    description:
      "A task's status and one page of records. Pass next_cursor unchanged as cursor for the " +
      "next page; wait_seconds waits for a running task.",
    inputSchema: {
      type: "object",
      properties: {
        task_id: TASK_ID_INPUT,
        limit: limitInput(config.resultLimit.max, config.resultLimit.default, "Page size"),
        cursor: { type: "string", minLength: 1, description: "next_cursor of the previous page" },
        wait_seconds: waitSecondsInput(config.wait.maxSeconds, 0),
        fields: {
          type: "array",
          items: { type: "string", pattern: FIELD_PATH_PATTERN },
          maxItems: MAX_FIELDS,
          description: "Keep only these dotted paths of each record, e.g. author.name",
        },
      },
      required: ["task_id"],
      additionalProperties: false,
    },
    outputSchema: TASK_OUTPUT_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
    spendsCredits: false,
    kind: "read",
    handler: (args, ctx) =>
      readTaskResult(deps, ctx, args.task_id, {
        deadlineMs: Date.now() + (args.wait_seconds ?? 0) * 1000,
        limit: args.limit ?? config.resultLimit.default,
        cursor: args.cursor,
        fields: args.fields,
      }),
  });
}
