/** The MCP tools: seven compact tools and one typed tool per endpoint, sharing one execution path. */
export { createToolRegistry, MAX_TOOL_NAME_LENGTH } from "./registry.js";
export type {
  CallToolResult,
  JsonSchema,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolDeps,
  ToolProgress,
  ToolRegistry,
} from "./types.js";
