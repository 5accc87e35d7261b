/**
 * The tool registry, built once at start: the seven compact tools and one typed tool per catalog
 * endpoint, with every schema and validator compiled here rather than per request.
 */
import { createAccountTool } from "./account.js";
import { createDescribeEndpointTool } from "./describe-endpoint.js";
import { createExecuteTool } from "./execute.js";
import { createGetFilesTool } from "./get-files.js";
import { createGetTaskTool } from "./get-task.js";
import { createListPlatformsTool } from "./list-platforms.js";
import { createSearchEndpointsTool } from "./search-endpoints.js";
import { createTypedTool } from "./typed-tool.js";
import type { ToolDefinition, ToolDeps, ToolRegistry } from "./types.js";

/** A client's `mcp__<server>__` prefix plus the name must stay within 64 characters. */
export const MAX_TOOL_NAME_LENGTH = 54;
const TOOL_NAME_PATTERN = /^[a-z0-9_]+$/;

export function createToolRegistry(deps: ToolDeps): ToolRegistry {
  const compact = Object.freeze([
    createListPlatformsTool(deps),
    createSearchEndpointsTool(deps),
    createDescribeEndpointTool(deps),
    createExecuteTool(deps),
    createGetTaskTool(deps),
    createGetFilesTool(deps),
    createAccountTool(deps),
  ]);
  const typed = Object.freeze(
    deps.catalog.endpoints.map((endpoint) => createTypedTool(deps, endpoint)),
  );
  const byName = new Map<string, ToolDefinition>();
  for (const tool of [...compact, ...typed]) {
    if (tool.name.length > MAX_TOOL_NAME_LENGTH || !TOOL_NAME_PATTERN.test(tool.name)) {
      throw new Error(
        `tool name "${tool.name}" must be lower-case letters, digits and "_", at most ${MAX_TOOL_NAME_LENGTH} characters`,
      );
    }
    if (byName.has(tool.name)) throw new Error(`tool name "${tool.name}" is used twice`);
    byName.set(tool.name, tool);
  }
  return { compact, typed, byName: (name) => byName.get(name) };
}
