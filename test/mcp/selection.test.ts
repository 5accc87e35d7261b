/** The selection parser shared by URL filters and stdio flags, and the tool-set cache behind it. */
import { describe, expect, it } from "vitest";
import { createBackendClient } from "../../src/backend/index.js";
import { loadCatalog } from "../../src/catalog/index.js";
import { loadConfig } from "../../src/config.js";
import { createSelector, type RawSelection, type ToolSelection } from "../../src/mcp/selection.js";
import { createToolSets } from "../../src/mcp/tool-sets.js";
import { createToolRegistry } from "../../src/tools/index.js";

const catalog = loadCatalog();
const config = loadConfig({});
// Never called: the registry only needs a client to hand to its tools.
const backend = createBackendClient({ baseUrl: "http://127.0.0.1:9", ...config.backend });
const registry = createToolRegistry({ catalog, backend, config });
const selector = createSelector(catalog, registry);

function select(raw: RawSelection): ToolSelection {
  const result = selector.resolve(raw);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.selection;
}

describe("createSelector", () => {
  it("gives the compact tools without filters, and only the free ones with readonly", () => {
    expect(select({}).names).toEqual(registry.compact.map((t) => t.name));
    expect(select({}).filtered).toBe(false);
    const free = select({ readonly: ["true"] }).names;
    expect(free).toEqual(registry.compact.filter((t) => !t.spendsCredits).map((t) => t.name));
    expect(select({ readonly: ["false"] }).names).toEqual(select({}).names);
  });

  it("gives a platform's typed tools in catalog order, then the readers", () => {
    const names = select({ platforms: ["video-network"] }).names;
    const typed = registry.typed.filter((t) => t.platform === "video-network").map((t) => t.name);
    expect(typed.length).toBe(7);
    expect(names).toEqual([...typed, "svc_get_task", "svc_get_files"]);
  });

  it("unites platforms and tools, whatever their spelling, into one normalized key", () => {
    const a = select({ platforms: ["pin-network"], tools: ["video-network/transcripts"] });
    const b = select({
      tools: [" SVC_VIDEO_NETWORK_TRANSCRIPTS ", "video_network_transcripts"],
      platforms: ["pin_network", "pin-network"],
    });
    expect(b).toEqual(a);
    expect(a.key).toBe(a.names.join(","));
  });

  it("keeps compact tools named in tools= after the typed ones", () => {
    const names = select({ tools: ["svc_account", "photo-network/reels"] }).names;
    expect(names).toEqual([
      "svc_photo_network_reels",
      "svc_account",
      "svc_get_task",
      "svc_get_files",
    ]);
  });

  it("reports every problem with the nearest names", () => {
    const result = selector.resolve({
      platforms: ["videonetwork"],
      tools: ["video-network/short", "svc_acount"],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      {
        parameter: "platforms",
        value: "videonetwork",
        problem: "unknown platform",
        nearest: expect.arrayContaining(["video-network"]),
      },
      {
        parameter: "tools",
        value: "video-network/short",
        problem: "unknown tool",
        nearest: expect.arrayContaining(["video-network/shorts"]),
      },
      {
        parameter: "tools",
        value: "svc_acount",
        problem: "unknown tool",
        nearest: expect.arrayContaining(["svc_account"]),
      },
    ]);
  });
});

describe("createToolSets", () => {
  it("builds each distinct selection once and reuses it", () => {
    const sets = createToolSets(registry);
    const first = sets.get(select({ platforms: ["pin-network"] }));
    const again = sets.get(select({ platforms: ["pin_network"] }));
    expect(again).toBe(first);
    expect(sets.size).toBe(1);
    expect(first.listing.map((t) => t.name)).toEqual([...first.byName.keys()]);
    expect(Object.isFrozen(first.listing)).toBe(true);
  });

  it("stays within its bound, dropping the least recently used selection", () => {
    const sets = createToolSets(registry, 2);
    const pin = sets.get(select({ platforms: ["pin-network"] }));
    const thread = sets.get(select({ platforms: ["thread-network"] }));
    sets.get(select({ platforms: ["pin-network"] }));
    sets.get(select({ platforms: ["video-network"] }));
    expect(sets.size).toBe(2);
    expect(sets.get(select({ platforms: ["pin-network"] }))).toBe(pin);
    // thread-network was the least recently used: it was dropped and is built anew.
    expect(sets.get(select({ platforms: ["thread-network"] }))).not.toBe(thread);
  });
});
