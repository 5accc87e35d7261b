/**
 * URL filters through a real client: committed snapshots of every tools/list variant (any
 * unreviewed change fails), and a 400 naming each bad value for every malformed filter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SELECTION_NAMES } from "../../src/mcp/selection.js";
import { INITIALIZE, post } from "../helpers/http.js";
import { type Stack, startStack } from "../helpers/stack.js";

let stack: Stack;
let platforms: string[];

beforeAll(async () => {
  stack = await startStack();
  const client = await stack.connect();
  const result = await client.callTool({ name: "svc_list_platforms", arguments: {} });
  platforms = (result.structuredContent as { platforms: { platform: string }[] }).platforms.map(
    (p) => p.platform,
  );
});
afterAll(() => stack.close());

async function listTools(query?: Record<string, string | string[]> | string) {
  const client = await stack.connect({ query });
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe("tools/list snapshots", () => {
  it.each([
    ["default-compact", undefined],
    ["one-platform", { platforms: "photo-network" }],
    [
      "tools-list",
      { tools: "video-network/transcripts,svc_forum_network_search,microblog_network_posts" },
    ],
    ["readonly", { readonly: "true" }],
    [
      "mixed",
      {
        platforms: "pin-network",
        tools: ["short-video-shop/product", "svc_get_task"],
        readonly: "false",
      },
    ],
    ["platform-readonly", { platforms: "thread-network", readonly: "true" }],
  ])("%s", async (name, query) => {
    const tools = await listTools(query);
    await expect(JSON.stringify(tools, null, 2)).toMatchFileSnapshot(
      `../__snapshots__/tools-list/${name}.json`,
    );
  });

  it("all-12-platforms", async () => {
    expect(platforms).toHaveLength(12);
    const tools = await listTools({ platforms: platforms.join(",") });
    expect(tools).toHaveLength(51 + 2);
    await expect(JSON.stringify(tools, null, 2)).toMatchFileSnapshot(
      "../__snapshots__/tools-list/all-12-platforms.json",
    );
  });
});

describe("selection semantics", () => {
  it("keeps svc_get_task and svc_get_files in every filtered list", async () => {
    const queries: Record<string, string>[] = [
      { platforms: "photo-network" },
      { tools: "pin_network_pins" },
    ];
    for (const query of queries) {
      const names = (await listTools(query)).map((t) => t.name);
      expect(names).toContain("svc_get_task");
      expect(names).toContain("svc_get_files");
    }
  });

  it("treats repeated parameters, spaces, case and spellings alike", async () => {
    const reference = (await listTools({ platforms: "photo-network,pin-network" })).map(
      (t) => t.name,
    );
    const variants = [
      "platforms=photo-network&platforms=pin-network",
      "platforms=%20Photo-Network%20,%20pin_network%20",
      "platforms=pin-network,photo-network,pin-network",
    ];
    for (const query of variants) {
      expect((await listTools(query)).map((t) => t.name)).toEqual(reference);
    }
    const byTool = [
      "svc_pin_network_pins",
      "pin-network/pins",
      "pin_network_pins",
      "PIN-NETWORK_PINS",
    ];
    const names = await Promise.all(
      byTool.map(async (t) => (await listTools({ tools: t })).map((x) => x.name)),
    );
    for (const list of names)
      expect(list).toEqual(["svc_pin_network_pins", "svc_get_task", "svc_get_files"]);
  });

  it("readonly=true keeps only tools that spend nothing", async () => {
    const tools = await listTools({ readonly: "true" });
    expect(tools.map((t) => t.name)).not.toContain("svc_execute");
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
  });

  it("a typed tool call works at a filtered address; a tool outside it is a protocol error", async () => {
    const client = await stack.connect({ query: { tools: "social-network/comments" } });
    const result = await client.callTool({
      name: "svc_social_network_comments",
      arguments: { urls: ["https://social-network.example/p/1"] },
    });
    expect(result.isError).toBeFalsy();
    await expect(client.callTool({ name: "svc_execute", arguments: {} })).rejects.toThrow(
      /Unknown tool "svc_execute"/,
    );
  });
});

describe("refused filters", () => {
  async function refuse(query: string) {
    const response = await post(`${stack.mcpUrl}?${query}`, {
      key: stack.keys[0],
      body: INITIALIZE,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: {
        code: number;
        message: string;
        data: { problems: { parameter: string; value: string; nearest: string[] }[] };
      };
    };
    expect(body.error.code).toBe(-32602);
    return body.error;
  }

  it.each([
    ["platforms=photo-netwrk", "photo-netwrk", "photo-network"],
    ["tools=photo_network_post", "photo_network_post", "photo_network_posts"],
    ["tools=photo-network/post", "photo-network/post", "photo-network/posts"],
    ["tools=svc_photo_network_reel", "svc_photo_network_reel", "svc_photo_network_reels"],
    ["platform=photo-network", "platform", "platforms"],
  ])("%s names the bad value and the nearest valid names", async (query, value, nearest) => {
    const error = await refuse(query);
    const problem = error.data.problems.find((p) => p.value === value);
    expect(problem?.nearest).toContain(nearest);
    expect(error.message).toContain(value);
    expect(error.message).toContain(nearest);
  });

  it("names every bad value of one request", async () => {
    const error = await refuse(
      "platforms=nope-network,photo-network&tools=also_nope,pin_network_pins&readonly=maybe",
    );
    expect(error.data.problems.map((p) => `${p.parameter}:${p.value}`)).toEqual([
      "readonly:maybe",
      "platforms:nope-network",
      "tools:also_nope",
    ]);
  });

  it.each([
    ["platforms=", /platforms "": empty list/],
    ["tools=,%20,", /tools "": empty list/],
    ["tools=%3Cscript%3E", /malformed name/],
    [`tools=${"a".repeat(300)}`, /malformed name/],
    ["readonly=yes", /must be true or false/],
    ["readonly=true&readonly=false", /must be true or false \(one value\)/],
    ["readonly=", /must be true or false/],
    ["readonly=true&tools=svc_execute", /svc_execute.*spends credits/],
    ["readonly=true&tools=photo-network/posts", /spends credits/],
    ["debug=1", /unknown parameter; accepted: platforms, tools, readonly/],
  ])("%s is refused", async (query, message) => {
    expect((await refuse(query)).message).toMatch(message);
  });

  it(`refuses more than ${MAX_SELECTION_NAMES} names`, async () => {
    const names = Array.from({ length: MAX_SELECTION_NAMES + 1 }, (_, i) => `tool_${i}`);
    expect((await refuse(`tools=${names.join(",")}`)).message).toMatch(/at most 64 names/);
  });

  it("refuses the client at connect time with the same message", async () => {
    await expect(stack.connect({ query: { platforms: "photo-netwrk" } })).rejects.toThrow(
      /unknown platform \(nearest: photo-network/,
    );
  });
});
