/** svc_get_files: the raw JSONL result files of a succeeded task, also as resource links. */
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { InvalidRequestError, type TaskFile } from "../backend/index.js";
import { defineTool } from "./define-tool.js";
import { errorResult, structuredResult } from "./results.js";
import { objectSchema, TASK_ID_INPUT } from "./schemas.js";
import type { ToolDefinition, ToolDeps } from "./types.js";

interface GetFilesArgs {
  task_id: string;
}

function fileLink(taskId: string, file: TaskFile, index: number): ContentBlock {
  return {
    type: "resource_link",
    uri: file.public_url,
    name: `${taskId}-${index + 1}.jsonl.gz`,
    mimeType: "application/gzip",
    description: `${file.file_type}: gzip-compressed JSONL of task ${taskId}`,
  };
}

export function createGetFilesTool({ backend }: ToolDeps): ToolDefinition {
  return defineTool<GetFilesArgs>({
    name: "svc_get_files",
    title: "Get raw files",
    description:
      "Download links (file_type, public_url) of a succeeded task's raw gzip JSONL files: every " +
      "record, not one page.",
    inputSchema: {
      type: "object",
      properties: { task_id: TASK_ID_INPUT },
      required: ["task_id"],
      additionalProperties: false,
    },
    outputSchema: objectSchema(
      {
        task_id: { type: "string" },
        files: {
          type: "array",
          items: objectSchema({ file_type: { type: "string" }, public_url: { type: "string" } }),
        },
      },
      ["task_id", "files"],
    ),
    annotations: { readOnlyHint: true, openWorldHint: false },
    spendsCredits: false,
    kind: "read",
    async handler({ task_id }, ctx) {
      const opts = { signal: ctx.signal };
      try {
        const { files } = await backend.getFiles(ctx.apiKey, task_id, opts);
        const data = {
          task_id,
          files: files.map(({ file_type, public_url }) => ({ file_type, public_url })),
        };
        return structuredResult(
          data,
          files.map((file, index) => fileLink(task_id, file, index)),
        );
      } catch (error) {
        if (!(error instanceof InvalidRequestError && error.code === "task_not_ready")) throw error;
        const task = await backend.getTask(ctx.apiKey, task_id, { limit: 1 }, opts);
        const step =
          task.status === "failed"
            ? `It failed: ${task.error_message ?? "no reason given"}.`
            : "Wait for it with svc_get_task (wait_seconds), then ask again.";
        return errorResult(
          `Task ${task_id} is ${task.status}: files exist only once it has succeeded. ${step}`,
        );
      }
    },
  });
}
