/**
 * The two shapes of a tool result: structured data (as `structuredContent` plus the same JSON as
 * text, for clients that only read text) and an `isError` result whose text the model can act on.
 * Error results carry no `structuredContent`: clients validate it against the success schema.
 */
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";

export function structuredResult(
  data: Record<string, unknown>,
  extraContent: ContentBlock[] = [],
): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(data) }, ...extraContent],
    structuredContent: data,
  };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
