/**
 * The `tools/list` answer and the name lookup for one selection, built once per distinct
 * selection and reused by every request that asks for it (a bounded, least-recently-used cache).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition, ToolRegistry } from "../tools/index.js";
import type { ToolSelection } from "./selection.js";

const DEFAULT_TOOL_SET_CACHE_SIZE = 128;

export interface ToolSet {
  key: string;
  /** What `tools/list` returns; shared, never mutated. */
  listing: readonly Tool[];
  /** `{"tools":[...]}`, the `tools/list` result serialized once. */
  listingJson: string;
  byName: ReadonlyMap<string, ToolDefinition>;
}

export interface ToolSets {
  get(selection: ToolSelection): ToolSet;
  readonly size: number;
}

function listingOf(tool: ToolDefinition): Tool {
  return Object.freeze({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  }) as Tool;
}

export function createToolSets(
  registry: ToolRegistry,
  maxEntries = DEFAULT_TOOL_SET_CACHE_SIZE,
): ToolSets {
  const listings = new Map<string, Tool>();
  for (const tool of [...registry.compact, ...registry.typed]) {
    listings.set(tool.name, listingOf(tool));
  }
  const cache = new Map<string, ToolSet>();

  function build(selection: ToolSelection): ToolSet {
    const byName = new Map<string, ToolDefinition>();
    const listing: Tool[] = [];
    for (const name of selection.names) {
      const tool = registry.byName(name);
      const entry = listings.get(name);
      if (!tool || !entry) throw new Error(`selection names a tool the registry lacks: ${name}`);
      byName.set(name, tool);
      listing.push(entry);
    }
    return {
      key: selection.key,
      listing: Object.freeze(listing),
      listingJson: JSON.stringify({ tools: listing }),
      byName,
    };
  }

  return {
    get(selection) {
      const cached = cache.get(selection.key);
      if (cached) {
        cache.delete(selection.key);
        cache.set(selection.key, cached);
        return cached;
      }
      const made = build(selection);
      cache.set(selection.key, made);
      if (cache.size > maxEntries) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      return made;
    },
    get size() {
      return cache.size;
    },
  };
}
