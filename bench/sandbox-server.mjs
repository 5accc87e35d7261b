// The sandbox in its own process for the load benchmarks, so the load tool does not share its CPU.
// Started by sandbox-load.mjs with --expose-gc; options arrive as JSON in argv[2]; answers
// {type: "stats"} and {type: "memory"} messages over IPC.
import { loadCatalog } from "../dist/catalog/index.js";
import { startSandbox } from "../dist/sandbox/index.js";

const options = JSON.parse(process.argv[2] ?? "{}");
const sandbox = await startSandbox({ catalog: loadCatalog(), ...options });

function memory() {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

process.on("message", async (message) => {
  if (message.type === "stats") process.send({ type: "stats", stats: sandbox.stats() });
  if (message.type === "memory") process.send({ type: "memory", memory: memory() });
  if (message.type === "close") {
    await sandbox.close();
    process.exit(0);
  }
});

process.send({ type: "ready", url: sandbox.url, key: sandbox.keys[0] });
