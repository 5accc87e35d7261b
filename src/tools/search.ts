/**
 * Endpoint search: filter by platform and tag, rank by a free-text query over the endpoint's id,
 * title, description and tags. Pure, so ranking is unit-tested without a server.
 */
import type { EndpointDescriptor } from "../catalog/types.js";

export interface EndpointQuery {
  platform?: string;
  query?: string;
  tag?: string;
}

/** Where a query word can match, and how much a match there counts. */
const FIELD_WEIGHTS: ReadonlyArray<[(endpoint: EndpointDescriptor) => string, number]> = [
  [(endpoint) => endpoint.resource, 6],
  [(endpoint) => endpoint.title, 5],
  [(endpoint) => endpoint.tags.join(" "), 4],
  [(endpoint) => endpoint.platform, 3],
  [(endpoint) => endpoint.description, 1],
];

/** Lower-case words; a plural `s` is dropped so `profile` matches `profiles`. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => (word.length > 3 && word.endsWith("s") ? word.slice(0, -1) : word));
}

/** A whole-word match counts double a match inside a longer word. */
export function score(endpoint: EndpointDescriptor, queryWords: readonly string[]): number {
  let total = 0;
  for (const [field, weight] of FIELD_WEIGHTS) {
    const fieldWords = words(field(endpoint));
    for (const word of queryWords) {
      if (fieldWords.includes(word)) total += weight * 2;
      else if (fieldWords.some((fieldWord) => fieldWord.includes(word))) total += weight;
    }
  }
  return total;
}

function samePlatform(endpoint: EndpointDescriptor, platform: string): boolean {
  return endpoint.platform === platform.trim().toLowerCase().replaceAll("_", "-");
}

/**
 * Endpoints matching every filter given, best first. Without a query the order is the catalog's
 * id order; with one, endpoints that match no query word are left out. A query equal to an
 * endpoint id or tool name puts that endpoint first.
 */
export function searchEndpoints(
  endpoints: readonly EndpointDescriptor[],
  filter: EndpointQuery,
): EndpointDescriptor[] {
  const tag = filter.tag?.trim().toLowerCase();
  const candidates = endpoints.filter(
    (endpoint) =>
      (filter.platform === undefined || samePlatform(endpoint, filter.platform)) &&
      (tag === undefined || endpoint.tags.some((item) => item.toLowerCase() === tag)),
  );
  const query = filter.query?.trim().toLowerCase() ?? "";
  const queryWords = words(query);
  if (queryWords.length === 0) {
    return [...candidates].sort((a, b) => a.public_id.localeCompare(b.public_id));
  }
  const exact = (endpoint: EndpointDescriptor) =>
    endpoint.public_id === query || endpoint.tool_name === query ? 1000 : 0;
  return candidates
    .map((endpoint) => ({ endpoint, score: exact(endpoint) + score(endpoint, queryWords) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.endpoint.public_id.localeCompare(b.endpoint.public_id))
    .map((entry) => entry.endpoint);
}
