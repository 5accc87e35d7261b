/** svc_list_platforms: the catalog's platforms, the first step of discovery. */
import { defineTool } from "./define-tool.js";
import { structuredResult } from "./results.js";
import { OBJECT_LIST, objectSchema } from "./schemas.js";
import type { ToolDefinition, ToolDeps } from "./types.js";

export function createListPlatformsTool({ catalog }: ToolDeps): ToolDefinition {
  const data = {
    schema_version: catalog.schemaVersion,
    platforms: catalog.platforms.map(({ platform, title, endpoint_count, tools }) => ({
      platform,
      title,
      endpoint_count,
      tools,
    })),
  };
  return defineTool({
    name: "svc_list_platforms",
    title: "List platforms",
    description:
      "List the platforms (title, endpoint_count, typed tool names) and the catalog schema_version. " +
      "Next: svc_search_endpoints.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    outputSchema: objectSchema({ schema_version: { type: "string" }, platforms: OBJECT_LIST }, [
      "schema_version",
      "platforms",
    ]),
    annotations: { readOnlyHint: true, openWorldHint: false },
    spendsCredits: false,
    kind: "compact",
    handler: async () => structuredResult(data),
  });
}
