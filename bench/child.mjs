// One measured process of a benchmark, so that the load tool, the MCP server and its backend do
// not share an event loop, and memory and event-loop lag are those of one server alone.
//   sandbox <knobs JSON>      the sandbox, counting the task reads (GET /v1/tasks/{id}) it answers
//   mcp <backend URL> [env]   the MCP server (env JSON for loadConfig; LOG_LEVEL "warn" by default,
//                             so that one log line per request does not dominate timings)
//   bare <backend URL>        the bare SDK pass-through of bench/bare-server.mjs
// IPC: {type: "stats"} (sandbox stats and read counts), {type: "memory", gc} (RSS and heap, after a
// GC when asked and --expose-gc is on), {type: "observe"} (restarts the lag histogram, peak RSS and
// CPU time), {type: "observed"} (what they hold since), {type: "close"}.
// Each role imports only what it runs, so that a process's memory is that of its role alone.
import { createServer } from "node:http";
import { lagMonitor, UNCOUNTED } from "./probes.mjs";

const TASK_READ = /^\/v1\/tasks\/([^/?]+)(?:\?|$)/;
const UNCOUNTED_HEADER = Object.keys(UNCOUNTED)[0];

/** Listens on 127.0.0.1 port 0; `close` ends idle and open connections too. */
async function listen(handler, closeApp = async () => {}) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    async close() {
      const stopped = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      await closeApp();
      server.closeAllConnections();
      await stopped;
    },
  };
}

async function sandboxRole(knobs) {
  const { loadCatalog } = await import("../dist/catalog/index.js");
  const { createSandboxApp } = await import("../dist/sandbox/index.js");
  const sandbox = createSandboxApp({ catalog: loadCatalog(), ...JSON.parse(knobs) });
  const reads = new Map();
  const running = await listen((req, res) => {
    const match = req.method === "GET" && TASK_READ.exec(req.url);
    if (match && req.headers[UNCOUNTED_HEADER] === undefined) {
      reads.set(match[1], (reads.get(match[1]) ?? 0) + 1);
    }
    sandbox.app(req, res);
  }, sandbox.close);
  const stats = () => ({
    ...sandbox.stats(),
    taskReads: [...reads.values()].reduce((sum, count) => sum + count, 0),
    readsByTask: Object.fromEntries(reads),
  });
  return { ...running, key: sandbox.options.keys[0], stats };
}

async function mcpRole(backendUrl, env = "{}") {
  const { loadConfig } = await import("../dist/config.js");
  const { startServer } = await import("../dist/http/start.js");
  const { createLogger } = await import("../dist/log.js");
  const config = {
    ...loadConfig({ LOG_LEVEL: "warn", ...JSON.parse(env) }),
    port: 0,
    host: "127.0.0.1",
    baseUrl: backendUrl,
  };
  return startServer(config, createLogger(config.logLevel));
}

const [role, ...args] = process.argv.slice(2);
const roles = {
  sandbox: sandboxRole,
  mcp: mcpRole,
  bare: async (backendUrl) =>
    (await import("./bare-server.mjs")).startBareServer(backendUrl, listen),
};
if (!roles[role]) throw new Error(`unknown role "${role}"; one of ${Object.keys(roles)}`);
const running = await roles[role](...args);

const lag = lagMonitor();
let rssPeak = 0;
let cpuFrom = process.cpuUsage();
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
}, 100);
sampler.unref();

function memory(gc) {
  if (gc) globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const answers = {
  stats: () => ({ stats: running.stats?.() }),
  memory: (message) => ({ memory: memory(message.gc) }),
  observe: () => {
    lag.reset();
    rssPeak = process.memoryUsage.rss();
    cpuFrom = process.cpuUsage();
    return {};
  },
  observed: () => {
    const cpu = process.cpuUsage(cpuFrom);
    return { lag: lag.read(), rssPeak, cpuMs: (cpu.user + cpu.system) / 1000, ...memory(false) };
  },
};

process.on("message", async (message) => {
  if (message.type === "close") {
    await running.close();
    process.exit(0);
  }
  process.send({ type: message.type, ...answers[message.type](message) });
});

process.send({ type: "ready", url: running.url, key: running.key });
