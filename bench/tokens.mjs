// Token cost of the tool listings. Run: npm run build && node bench/tokens.mjs
// Starts the real server (embedded sandbox) on a loopback port, asks /mcp for `tools/list` at each
// address an agent might connect to, and counts o200k tokens of the JSON of each `tools/list`
// result: what every connection puts into the model's context. Exits 1 when a budget is exceeded.
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { loadCatalog } from "../dist/catalog/index.js";
import { loadConfig } from "../dist/config.js";
import { startServer } from "../dist/http/start.js";
import { createLogger } from "../dist/log.js";

const KEY = "bench-tokens-key";
const BUDGETS = { compact: 2_000, typedTotal: 18_000, typedAverage: 350 };
const ALL_PLATFORMS = loadCatalog().platforms.map((platform) => platform.platform);
const VARIANTS = [
  ["compact (default address)", ""],
  ["one platform", "platforms=video-network"],
  ["all 12 platforms", `platforms=${ALL_PLATFORMS.join(",")}`],
  ["tools= list (3 tools)", "tools=social-network_pages,video-network_comments,pin-network_pins"],
  ["readonly", "readonly=true"],
  ["mixed (platform + tools)", "platforms=forum-network&tools=video-network_transcripts"],
];
const READ_TOOLS = new Set(["svc_get_task", "svc_get_files"]);

const tokens = (value) => encode(JSON.stringify(value)).length;

/** The `result` of a JSON-RPC response sent as JSON or as one SSE `message` event. */
async function rpcResult(response) {
  const body = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${body.slice(0, 300)}`);
  const data = (response.headers.get("content-type") ?? "").includes("text/event-stream")
    ? body
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("")
    : body;
  const message = JSON.parse(data);
  if (message.error) throw new Error(`JSON-RPC error: ${JSON.stringify(message.error)}`);
  return message.result;
}

async function toolsList(mcpUrl, query) {
  const response = await fetch(query ? `${mcpUrl}?${query}` : mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${KEY}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  return rpcResult(response);
}

const config = { ...loadConfig({}), port: 0, host: "127.0.0.1", baseUrl: undefined };
const server = await startServer(config, createLogger("error"), { sandbox: { keys: [KEY] } });
let over = false;
try {
  const rows = [];
  let typed;
  for (const [title, query] of VARIANTS) {
    const result = await toolsList(server.mcpUrl, query);
    const count = tokens(result);
    rows.push({ title, query, tools: result.tools.length, tokens: count });
    if (title.startsWith("all 12")) typed = result.tools.filter((t) => !READ_TOOLS.has(t.name));
  }
  const typedTotal = tokens({ tools: typed });
  const typedAverage = typedTotal / typed.length;
  const perTool = typed.map((tool) => [tool.name, tokens(tool)]).sort((a, b) => b[1] - a[1]);

  console.log(`tools/list token cost (o200k), ${server.mcpUrl}`);
  console.log("variant                      tools  tokens  per tool  query");
  for (const row of rows) {
    console.log(
      `${row.title.padEnd(28)} ${String(row.tools).padStart(5)} ${String(row.tokens).padStart(7)} ` +
        `${(row.tokens / row.tools).toFixed(0).padStart(9)}  ${row.query || "(none)"}`,
    );
  }
  console.log(
    `\n${typed.length} typed tools alone: ${typedTotal} tokens, ${typedAverage.toFixed(1)} per tool ` +
      `(largest ${perTool[0][0]} ${perTool[0][1]}, smallest ${perTool.at(-1)[0]} ${perTool.at(-1)[1]})`,
  );
  const compact = rows[0].tokens;
  const checks = [
    ["compact list", compact, BUDGETS.compact],
    ["typed tools total", typedTotal, BUDGETS.typedTotal],
    ["typed tools average", Number(typedAverage.toFixed(1)), BUDGETS.typedAverage],
  ];
  console.log("\nbudget                value  budget");
  for (const [name, value, budget] of checks) {
    const ok = value <= budget;
    over ||= !ok;
    console.log(
      `${name.padEnd(20)} ${String(value).padStart(6)} ${String(budget).padStart(7)}  ${ok ? "ok" : "OVER"}`,
    );
  }
} finally {
  await server.close();
}
process.exitCode = over ? 1 : 0;
