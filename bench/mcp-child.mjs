// The MCP server in its own process for bench/mcp-latency.mjs, in front of the backend whose URL
// arrives in argv[2]. Logs at "warn" so that one log line per request does not dominate timings.
import { loadConfig } from "../dist/config.js";
import { startServer } from "../dist/http/start.js";
import { createLogger } from "../dist/log.js";

const config = { ...loadConfig({ LOG_LEVEL: "warn" }), port: 0, baseUrl: process.argv[2] };
const server = await startServer(config, createLogger(config.logLevel));

process.on("message", async (message) => {
  if (message.type === "close") {
    await server.close();
    process.exit(0);
  }
});

process.send({ type: "ready", url: server.url });
