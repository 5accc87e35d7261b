// One process of bench/mcp-latency.mjs, so that the load tool, the MCP server and its backend do
// not share a CPU: `sandbox <options JSON>` starts a sandbox; `mcp <backend URL>` the MCP server in
// front of it, logging at "warn" so that one log line per request does not dominate timings.
import { loadCatalog } from "../dist/catalog/index.js";
import { loadConfig } from "../dist/config.js";
import { startServer } from "../dist/http/start.js";
import { createLogger } from "../dist/log.js";
import { startSandbox } from "../dist/sandbox/index.js";

const [role, argument] = process.argv.slice(2);
let running;
if (role === "sandbox") {
  const sandbox = await startSandbox({ catalog: loadCatalog(), ...JSON.parse(argument) });
  running = { url: sandbox.url, key: sandbox.keys[0], close: sandbox.close };
} else {
  const config = { ...loadConfig({ LOG_LEVEL: "warn" }), port: 0, baseUrl: argument };
  const server = await startServer(config, createLogger(config.logLevel));
  running = { url: server.url, close: server.close };
}

process.on("message", async (message) => {
  if (message.type === "close") {
    await running.close();
    process.exit(0);
  }
});

process.send({ type: "ready", url: running.url, key: running.key });
