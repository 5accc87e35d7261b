// What the MCP layer adds. Run: npm run bench:mcp (builds dist/ first).
// The sandbox, the MCP server and a bare SDK pass-through (bench/bare-server.mjs) each run in their
// own process; this one only sends requests.
// 1. svc_get_task through POST /mcp, through the bare pass-through and the same
//    GET /v1/tasks/{id} straight to the sandbox, alternated one by one on one keep-alive
//    connection: p50 and p99 (goal: /mcp adds <= 1 ms at p50 over the direct read).
// 2. tools/list with all 12 platforms versus the compact list, alternated: p50 ratio (goal <= 1.5).
// 3. Throughput under load (autocannon): direct, then bare and /mcp alternated for ROUNDS rounds;
//    goal: /mcp >= 0.9 of the bare pass-through.

import { Agent, request } from "undici";
import { loadCatalog } from "../dist/catalog/index.js";
import {
  load,
  MCP_HEADERS,
  machine,
  percentile,
  rest,
  rpcBody,
  rpcMessage,
  sandboxKnobs,
  sleep,
  startChild,
  today,
} from "./harness.mjs";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3000);
const WARMUP = 500;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 2;
const CONNECTIONS = 32;
const PAGE = 10;
const CATALOG = loadCatalog();
const ALL_PLATFORMS = CATALOG.platforms.map((platform) => platform.platform);

const sandbox = await startChild("sandbox", [
  sandboxKnobs({ queuedMs: 0, runningMs: 20, retentionMs: 3_600_000 }),
]);
const mcp = await startChild("mcp", [sandbox.url]);
const bare = await startChild("bare", [sandbox.url]);
const auth = { authorization: `Bearer ${sandbox.key}` };
const dispatcher = new Agent({ connections: 1, keepAliveTimeout: 30_000 });

async function timed(url, options) {
  const started = performance.now();
  const answer = await request(url, { dispatcher, ...options });
  const body = await answer.body.text();
  const elapsed = performance.now() - started;
  if (answer.statusCode >= 300) throw new Error(`${url}: HTTP ${answer.statusCode} ${body}`);
  return { elapsed, body, contentType: String(answer.headers["content-type"] ?? "") };
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

const { task_id: taskId } = await rest(
  sandbox,
  "POST",
  "/v1/microblog-network/search",
  JSON.stringify({ query: "bench", results_limit: 100 }),
);
await sleep(500);

const mcpHeaders = { ...auth, ...MCP_HEADERS };
const getTaskBody = rpcBody("tools/call", {
  name: "svc_get_task",
  arguments: { task_id: taskId, limit: PAGE },
});
const directUrl = `${sandbox.url}/v1/tasks/${taskId}?limit=${PAGE}`;
const mcpUrl = `${mcp.url}/mcp`;
const bareUrl = `${bare.url}/mcp`;
const allUrl = `${mcpUrl}?platforms=${ALL_PLATFORMS.join(",")}`;
const postTo = (url, body) => () => timed(url, { method: "POST", headers: mcpHeaders, body });

for (const url of [mcpUrl, bareUrl]) {
  const probe = await postTo(url, getTaskBody)();
  const text = rpcMessage(probe.body, probe.contentType)?.result?.content?.[0]?.text ?? "";
  if (JSON.parse(text).status !== "succeeded") {
    throw new Error(`unexpected answer from ${url}: ${probe.body.slice(0, 300)}`);
  }
}

const [direct, viaBare, viaMcp] = await alternate([
  () => timed(directUrl, { headers: auth }),
  postTo(bareUrl, getTaskBody),
  postTo(mcpUrl, getTaskBody),
]);
const listBody = rpcBody("tools/list", {});
const [compactList, allList] = await alternate([
  postTo(mcpUrl, listBody),
  postTo(allUrl, listBody),
]);

const phase = { connections: CONNECTIONS, duration: DURATION_SECONDS };
const mcpLoad = { ...phase, method: "POST", headers: mcpHeaders, body: getTaskBody };
const directRps = (await load(directUrl, { ...phase, headers: auth })).rps;
const rounds = [];
for (let round = 0; round < ROUNDS; round++) {
  const bareRps = (await load(bareUrl, mcpLoad)).rps;
  const mcpRps = (await load(mcpUrl, mcpLoad)).rps;
  rounds.push({ bareRps, mcpRps });
}

await Promise.all([mcp.close(), bare.close()]);
await sandbox.close();
await dispatcher.close();

const ms = (value) => value.toFixed(3);
const row = (label, sorted) =>
  console.log(`| ${label} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 99))} |`);
const added = (over, base, p) => percentile(over, p) - percentile(base, p);
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const bareRps = mean(rounds.map((r) => r.bareRps));
const mcpRps = mean(rounds.map((r) => r.mcpRps));
const listRatio = percentile(allList, 50) / percentile(compactList, 50);
const verdict = (met) => (met ? "met" : "MISSED");

console.log(machine());
console.log(
  `date: ${today()}; ${SAMPLES} alternated samples per request (after ${WARMUP} warm-up); load: ${CONNECTIONS} connections, ${DURATION_SECONDS} s per phase, bare and /mcp alternated ${ROUNDS} times\n`,
);
console.log("| request | p50 ms | p99 ms |");
console.log("|---|---|---|");
row(`GET /v1/tasks/{id}?limit=${PAGE} straight to the sandbox`, direct);
row(`svc_get_task (limit ${PAGE}) through the bare SDK pass-through`, viaBare);
row(`svc_get_task (limit ${PAGE}) through POST /mcp`, viaMcp);
row("tools/list, compact (7 tools)", compactList);
row(`tools/list, all 12 platforms (${CATALOG.endpoints.length + 2} tools)`, allList);
console.log("");
const p50Added = added(viaMcp, direct, 50);
console.log(
  `added by /mcp over direct: p50 ${ms(p50Added)} ms (goal <= 1 ms: ${verdict(p50Added <= 1)}), p99 ${ms(added(viaMcp, direct, 99))} ms`,
);
console.log(
  `added by /mcp over the bare pass-through: p50 ${ms(added(viaMcp, viaBare, 50))} ms, p99 ${ms(added(viaMcp, viaBare, 99))} ms`,
);
console.log(
  `throughput: ${Math.round(directRps)} req/s direct; per round bare / mcp: ${rounds
    .map((r) => `${Math.round(r.bareRps)} / ${Math.round(r.mcpRps)}`)
    .join(", ")} req/s`,
);
console.log(
  `/mcp / bare: ${(mcpRps / bareRps).toFixed(2)} (goal >= 0.9: ${verdict(mcpRps / bareRps >= 0.9)}); /mcp / direct: ${(mcpRps / directRps).toFixed(2)}`,
);
console.log(
  `tools/list all 12 / compact at p50: ${listRatio.toFixed(2)} (goal <= 1.5: ${verdict(listRatio <= 1.5)})`,
);
