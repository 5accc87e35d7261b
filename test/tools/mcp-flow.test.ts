/**
 * The whole agent flow through the SDK's own Client over /mcp (sandbox + server on port 0): the
 * Client checks every structuredContent against the tool's outputSchema itself.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "../helpers/stack.js";

const COMMENTS = "social-network/comments";
const POST = "https://www.social-network.example/natgeo/posts/1234567890";
const MAX_PAGES = 100;

let stack: Stack;
let client: Client;
beforeAll(async () => {
  stack = await startStack({ sandbox: { slowMs: 1_500 } });
  client = await stack.connect();
});
afterAll(() => stack.close());

async function call(
  target: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: Progress) => void,
) {
  const result = (await target.callTool(
    { name, arguments: args },
    undefined,
    onprogress ? { onprogress } : undefined,
  )) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

type Item = { id: unknown };

describe("an agent over /mcp", () => {
  it("discovers, runs, waits with progress, pages every record once, gets files and sees credits", async () => {
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toContain("svc_execute");

    const search = await call(client, "svc_search_endpoints", { query: "post comments", limit: 5 });
    expect((search.endpoints as { id: string }[]).map((entry) => entry.id)).toContain(COMMENTS);
    const described = await call(client, "svc_describe_endpoint", { endpoint: COMMENTS });
    const estimate = (described.billing as { estimate: { credits: number } }).estimate;

    const before = await call(client, "svc_account", {});
    const progress: Progress[] = [];
    const first = await call(
      client,
      "svc_execute",
      { endpoint: COMMENTS, input: { urls: [POST, "sandbox:slow"] }, result_limit: 25 },
      (update) => progress.push(update),
    );
    expect(first.status).toBe("succeeded");
    expect(progress.length).toBeGreaterThanOrEqual(2);

    const ids = (first.items as Item[]).map((item) => item.id);
    let page = first;
    for (let reads = 0; page.has_more === true; reads++) {
      expect(reads).toBeLessThan(MAX_PAGES);
      page = await call(client, "svc_get_task", {
        task_id: first.task_id,
        cursor: page.next_cursor,
        limit: 40,
      });
      ids.push(...(page.items as Item[]).map((item) => item.id));
    }
    const total = (first.estimated_credits as number) / 0.3;
    expect(ids).toHaveLength(Math.round(total));
    expect(new Set(ids).size).toBe(ids.length);
    expect(first.estimated_credits).toBe(estimate.credits);

    const files = (await client.callTool({
      name: "svc_get_files",
      arguments: { task_id: first.task_id },
    })) as CallToolResult;
    expect(files.content.some((block) => block.type === "resource_link")).toBe(true);

    const after = await call(client, "svc_account", {});
    const used = (account: Record<string, unknown>) => (account.credits as { used: number }).used;
    expect(used(after) - used(before)).toBeCloseTo(first.estimated_credits as number, 6);
  });

  it("runs a typed tool at a filtered address with the result svc_execute gives", async () => {
    const typedClient = await stack.connect({ query: { platforms: "social-network" } });
    const names = (await typedClient.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["svc_social_network_comments", "svc_get_task", "svc_get_files"]),
    );
    const typed = await call(typedClient, "svc_social_network_comments", { urls: [POST] });
    const compact = await call(client, "svc_execute", {
      endpoint: COMMENTS,
      input: { urls: [POST] },
    });
    expect(Object.keys(typed).sort()).toEqual(Object.keys(compact).sort());
    expect(typed.items).toEqual(compact.items);
  });
});
