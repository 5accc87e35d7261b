/** svc_search_endpoints: find endpoints by platform, free-text query and tag, best first. */
import { nearestNames } from "../catalog/nearest.js";
import type { EndpointDescriptor } from "../catalog/types.js";
import { defineTool } from "./define-tool.js";
import { errorResult, structuredResult } from "./results.js";
import { limitInput, OBJECT_LIST, objectSchema } from "./schemas.js";
import { searchEndpoints } from "./search.js";
import type { ToolDefinition, ToolDeps } from "./types.js";

interface SearchArgs {
  platform?: string;
  query?: string;
  tag?: string;
  limit?: number;
}

const DEFAULT_LIMIT = 10;
const SUMMARY_MAX_CHARS = 160;

/** The description's first sentence, for a compact entry. */
export function summaryOf(description: string): string {
  const first = description.split(/(?<=\.)\s/)[0] ?? description;
  return first.length > SUMMARY_MAX_CHARS ? `${first.slice(0, SUMMARY_MAX_CHARS - 1)}…` : first;
}

function entry(endpoint: EndpointDescriptor) {
  return {
    id: endpoint.public_id,
    tool: endpoint.tool_name,
    title: endpoint.title,
    summary: summaryOf(endpoint.description),
    credits_per_result: endpoint.billing.credits_per_result,
  };
}

export function createSearchEndpointsTool({ catalog }: ToolDeps): ToolDefinition {
  const platforms = catalog.platforms.map((platform) => platform.platform);
  return defineTool<SearchArgs>({
    name: "svc_search_endpoints",
    title: "Search endpoints",
    description:
      "Find collection endpoints, best match first: id, tool name, title, summary, credits per " +
      "result. Next: svc_describe_endpoint for the input schema.",
    inputSchema: {
      type: "object",
      properties: {
        platform: { type: "string", description: "Only this platform, e.g. video-network" },
        query: {
          type: "string",
          maxLength: 200,
          description: "Words matched against id, title, description and tags",
        },
        tag: { type: "string", description: "Only endpoints with this tag" },
        limit: limitInput(catalog.endpoints.length, DEFAULT_LIMIT, "Max entries"),
      },
      additionalProperties: false,
    },
    outputSchema: objectSchema({ total: { type: "integer" }, endpoints: OBJECT_LIST }, [
      "total",
      "endpoints",
    ]),
    annotations: { readOnlyHint: true, openWorldHint: false },
    spendsCredits: false,
    kind: "compact",
    async handler({ platform, query, tag, limit = DEFAULT_LIMIT }) {
      const normalized = platform?.trim().toLowerCase().replaceAll("_", "-");
      if (normalized !== undefined && !platforms.includes(normalized)) {
        const nearest = nearestNames(normalized, platforms, 3);
        return errorResult(
          `Unknown platform "${platform}". Nearest: ${nearest.join(", ")}. ` +
            "svc_list_platforms lists them all.",
        );
      }
      const found = searchEndpoints(catalog.endpoints, { platform: normalized, query, tag });
      return structuredResult({ total: found.length, endpoints: found.slice(0, limit).map(entry) });
    },
  });
}
