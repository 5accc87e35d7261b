// What the MCP layer adds. Run: npm run bench:mcp (builds dist/ first).
// Sandbox and MCP server each run in their own process; this one only sends requests.
// 1. svc_get_task through POST /mcp versus the same GET /v1/tasks/{id} straight to the sandbox,
//    alternated one by one on one keep-alive connection: p50 and p99 added latency (goal: <= 1 ms
//    at p50); then both under load (autocannon): the throughput ratio.
// 2. tools/list with all 12 platforms versus the compact list, alternated: p50 ratio (goal <= 1.5).
import { fork } from "node:child_process";
import { cpus, totalmem } from "node:os";
import autocannon from "autocannon";
import { Agent, request } from "undici";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3000);
const WARMUP = 500;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const PAGE = 10;
const ALL_PLATFORMS = [
  "social-network",
  "social-network-ad-library",
  "social-network-marketplace",
  "photo-network",
  "professional-network",
  "pin-network",
  "forum-network",
  "thread-network",
  "short-video-network",
  "short-video-shop",
  "microblog-network",
  "video-network",
];

function child(args) {
  const process = fork(new URL("./mcp-child.mjs", import.meta.url), args);
  return new Promise((resolve, reject) => {
    process.once("error", reject);
    process.once("message", (ready) =>
      resolve({
        ...ready,
        close: () =>
          new Promise((done) => {
            process.once("exit", done);
            process.send({ type: "close" });
          }),
      }),
    );
  });
}

const dispatcher = new Agent({ connections: 1, keepAliveTimeout: 30_000 });

async function timed(url, options) {
  const started = performance.now();
  const answer = await request(url, { dispatcher, ...options });
  const body = await answer.body.text();
  const elapsed = performance.now() - started;
  if (answer.statusCode >= 300) throw new Error(`${url}: HTTP ${answer.statusCode} ${body}`);
  return { elapsed, body };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Alternates the requests one by one; returns the sorted durations of each. */
async function alternate(requests) {
  const durations = requests.map(() => []);
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    for (const [index, send] of requests.entries()) {
      const { elapsed } = await send();
      if (i >= WARMUP) durations[index].push(elapsed);
    }
  }
  return durations.map((list) => list.sort((a, b) => a - b));
}

async function load(url, options) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    ...options,
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${url}: ${failures} failed requests`);
  return result.requests.average;
}

const sandbox = await child([
  "sandbox",
  JSON.stringify({
    queuedMs: 0,
    runningMs: 20,
    startingCredits: 1e12,
    rateLimit: 0,
    retentionMs: 3_600_000,
  }),
]);
const mcp = await child(["mcp", sandbox.url]);
const auth = { authorization: `Bearer ${sandbox.key}` };

const submitted = await request(`${sandbox.url}/v1/microblog-network/search`, {
  method: "POST",
  headers: { ...auth, "content-type": "application/json" },
  body: JSON.stringify({ query: "bench", results_limit: 100 }),
});
const { task_id: taskId } = await submitted.body.json();
await new Promise((resolve) => setTimeout(resolve, 500));

const mcpHeaders = {
  ...auth,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};
const rpc = (method, params) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
const getTaskBody = rpc("tools/call", {
  name: "svc_get_task",
  arguments: { task_id: taskId, limit: PAGE },
});
const directUrl = `${sandbox.url}/v1/tasks/${taskId}?limit=${PAGE}`;
const mcpUrl = `${mcp.url}/mcp`;
const allUrl = `${mcpUrl}?platforms=${ALL_PLATFORMS.join(",")}`;

const probe = await timed(mcpUrl, { method: "POST", headers: mcpHeaders, body: getTaskBody });
if (!probe.body.includes('"status\\":\\"succeeded\\"'))
  throw new Error(`unexpected answer: ${probe.body.slice(0, 300)}`);

const [direct, viaMcp] = await alternate([
  () => timed(directUrl, { headers: auth }),
  () => timed(mcpUrl, { method: "POST", headers: mcpHeaders, body: getTaskBody }),
]);
const listBody = rpc("tools/list", {});
const [compactList, allList] = await alternate([
  () => timed(mcpUrl, { method: "POST", headers: mcpHeaders, body: listBody }),
  () => timed(allUrl, { method: "POST", headers: mcpHeaders, body: listBody }),
]);
const directRps = await load(directUrl, { headers: auth });
const mcpRps = await load(mcpUrl, { method: "POST", headers: mcpHeaders, body: getTaskBody });

await mcp.close();
await sandbox.close();
await dispatcher.close();

const ms = (value) => value.toFixed(3);
const p50Added = percentile(viaMcp, 50) - percentile(direct, 50);
const p99Added = percentile(viaMcp, 99) - percentile(direct, 99);
const listRatio = percentile(allList, 50) / percentile(compactList, 50);
console.log(
  `machine: ${cpus()[0]?.model} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
);
console.log(
  `date: ${new Date().toISOString().slice(0, 10)}; ${SAMPLES} alternated samples per request (after ${WARMUP} warm-up), load: ${CONNECTIONS} connections, ${DURATION_SECONDS} s each\n`,
);
console.log("| request | p50 ms | p99 ms |");
console.log("|---|---|---|");
console.log(
  `| GET /v1/tasks/{id}?limit=${PAGE} straight to the sandbox | ${ms(percentile(direct, 50))} | ${ms(percentile(direct, 99))} |`,
);
console.log(
  `| svc_get_task (limit ${PAGE}) through POST /mcp | ${ms(percentile(viaMcp, 50))} | ${ms(percentile(viaMcp, 99))} |`,
);
console.log(
  `| tools/list, compact (7 tools) | ${ms(percentile(compactList, 50))} | ${ms(percentile(compactList, 99))} |`,
);
console.log(
  `| tools/list, all 12 platforms (53 tools) | ${ms(percentile(allList, 50))} | ${ms(percentile(allList, 99))} |`,
);
console.log("");
console.log(
  `added by /mcp: p50 ${ms(p50Added)} ms (goal <= 1 ms: ${p50Added <= 1 ? "met" : "MISSED"}), p99 ${ms(p99Added)} ms`,
);
console.log(
  `throughput: ${Math.round(directRps)} req/s direct, ${Math.round(mcpRps)} req/s through /mcp, ratio ${(mcpRps / directRps).toFixed(2)}`,
);
console.log(
  `tools/list all 12 / compact at p50: ${listRatio.toFixed(2)} (goal <= 1.5: ${listRatio <= 1.5 ? "met" : "MISSED"})`,
);
