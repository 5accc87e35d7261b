import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CatalogError, DEFAULT_CATALOG_DIR, loadCatalog } from "../../src/catalog/index.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests edit arbitrary places of parsed catalog files
type Json = Record<string, any>;

const made: string[] = [];

/** A copy of catalog/ in a temp dir, with `file` changed by `edit` (or replaced by raw text). */
function corruptedCopy(file: string, edit: ((data: Json) => void) | string): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-catalog-"));
  made.push(dir);
  cpSync(DEFAULT_CATALOG_DIR, dir, { recursive: true });
  const path = join(dir, file);
  if (typeof edit === "string") {
    writeFileSync(path, edit);
  } else {
    const data = JSON.parse(readFileSync(path, "utf8")) as Json;
    edit(data);
    writeFileSync(path, JSON.stringify(data));
  }
  return dir;
}

function loadError(dir: string): CatalogError {
  try {
    loadCatalog(dir);
  } catch (error) {
    if (error instanceof CatalogError) return error;
    throw error;
  }
  throw new Error("the corrupted catalog loaded");
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("loadCatalog", () => {
  it("finds the package's catalog/ folder from its own location", () => {
    expect(resolve(DEFAULT_CATALOG_DIR)).toBe(resolve(import.meta.dirname, "../../catalog"));
    expect(existsSync(join(DEFAULT_CATALOG_DIR, "index.json"))).toBe(true);
    expect(loadCatalog().endpoints).toHaveLength(51);
  });

  it("loads an unchanged copy from another folder", () => {
    const dir = corruptedCopy("index.json", () => {});
    expect(loadCatalog(dir).schemaVersion).toBe(loadCatalog().schemaVersion);
  });
});

describe("a corrupted copy is rejected, naming the file and the JSON path", () => {
  const cases: Array<[string, string, ((data: Json) => void) | string, string, RegExp]> = [
    ["text that is not JSON", "photo-network.json", '{"platform": ', "(root)", /is not valid JSON/],
    [
      "a price of the wrong type",
      "photo-network.json",
      (d) => {
        d.endpoints[2].billing.credits_per_result = "cheap";
      },
      "endpoints[2].billing.credits_per_result",
      /must be a number \(got "cheap"\)/,
    ],
    [
      "a missing descriptor field",
      "video-network.json",
      (d) => {
        delete d.endpoints[1].tags;
      },
      "endpoints[1].tags",
      /missing required field "tags"/,
    ],
    [
      "an endpoint_count that does not match",
      "pin-network.json",
      (d) => {
        d.endpoint_count = 5;
      },
      "endpoint_count",
      /must equal the number of endpoints, 4 \(got 5\)/,
    ],
    [
      "a tool name that breaks the naming rule",
      "thread-network.json",
      (d) => {
        d.endpoints[0].tool_name = "svc_threads_posts";
      },
      "endpoints[0].tool_name",
      /must be "svc_thread_network_posts"/,
    ],
    [
      "a tool name over 54 characters",
      "thread-network.json",
      (d) => {
        d.endpoints[0].tool_name = `svc_${"x".repeat(51)}`;
      },
      "endpoints[0].tool_name",
      /at most 54 characters/,
    ],
    [
      "an example that breaks its input schema",
      "social-network.json",
      (d) => {
        d.endpoints[0].examples[0].input = { urls: [] };
      },
      "endpoints[0].examples[0].input",
      /breaks the input schema: urls must list at least 1 item/,
    ],
    [
      "callback_url without supports_callback",
      "social-network.json",
      (d) => {
        d.endpoints[1].supports_callback = false;
      },
      "endpoints[1].input_schema.properties.callback_url",
      /exactly when supports_callback is true/,
    ],
    [
      "an input schema with a misspelt keyword",
      "forum-network.json",
      (d) => {
        d.endpoints[0].input_schema.properties.urls.minItem = 1;
      },
      "endpoints[0].input_schema",
      /not a usable JSON Schema: .*minItem/,
    ],
    [
      "an input schema that is not closed",
      "forum-network.json",
      (d) => {
        d.endpoints[3].input_schema.additionalProperties = true;
      },
      "endpoints[3].input_schema.additionalProperties",
      /must be false/,
    ],
    [
      "an estimate basis naming no input field",
      "short-video-shop.json",
      (d) => {
        d.endpoints[0].billing.estimate_basis.input = "links";
      },
      "endpoints[0].billing.estimate_basis.input",
      /names "links", which is not an input field/,
    ],
    [
      "an index naming a file twice",
      "index.json",
      (d) => {
        d.platform_files.push(d.platform_files[0]);
      },
      "platform_files",
      /must not repeat items/,
    ],
    [
      "an index naming a missing file",
      "index.json",
      (d) => {
        d.platform_files.push("no-such-network.json");
      },
      "(root)",
      /cannot be read \(ENOENT\)/,
    ],
  ];

  it.each(cases)("%s", (_, file, edit, path, detail) => {
    const dir = corruptedCopy(file, edit);
    const error = loadError(dir);
    const named = file === "index.json" && path === "(root)" ? "no-such-network.json" : file;
    expect(error.file).toBe(join(dir, named));
    expect(error.violations.map((violation) => violation.path)).toContain(path);
    expect(error.message).toContain(join(dir, named));
    expect(error.message).toContain(`at ${path}:`);
    expect(error.message).toMatch(detail);
  });

  it("rejects a tool name that two endpoints would share", () => {
    // video/network-videos and video-network/videos both make svc_video_network_videos.
    const dir = corruptedCopy("index.json", (d) => {
      d.platform_files.push("video.json");
    });
    const source = JSON.parse(readFileSync(join(dir, "video-network.json"), "utf8")) as Json;
    const videos = source.endpoints.find((e: Json) => e.resource === "videos");
    const clash = { ...videos, platform: "video", resource: "network-videos" };
    clash.public_id = "video/network-videos";
    const platform = { platform: "video", title: "Video", endpoint_count: 1 };
    const file = { ...platform, tools: [videos.tool_name], endpoints: [clash] };
    writeFileSync(join(dir, "video.json"), JSON.stringify(file));
    const error = loadError(dir);
    expect(error.file).toBe(join(dir, "video.json"));
    expect(error.path).toBe("endpoints[0].tool_name");
    expect(error.message).toContain(
      `"svc_video_network_videos" is already used in ${join(dir, "video-network.json")}`,
    );
  });
});
