// Memory under a steady load. Run: npm run bench:soak [-- --duration <seconds>] (default 300).
// The sandbox (0.3 s tasks, kept 60 s) and the MCP server run in processes of their own. This
// process starts RATE calls a second (open loop, at most MAX_IN_FLIGHT at once), cycling through
// svc_execute (wait_seconds 5), svc_get_task (a recent task, 20 records), tools/list and
// svc_get_task again. The server's RSS is sampled every SAMPLE_SECONDS; growth is the mean of the
// last three samples over the mean of the first three after the warm-up (goal <= 10 %). The heap
// after a forced GC at both points tells retained objects from allocator slack.
import { parseArgs } from "node:util";
import {
  createMcpClient,
  machine,
  mib,
  percentile,
  sandboxKnobs,
  sleep,
  startChild,
  today,
} from "./harness.mjs";

const { values: flags } = parseArgs({ options: { duration: { type: "string", default: "300" } } });
const DURATION_SECONDS = Number(flags.duration);
if (!(DURATION_SECONDS >= 20)) throw new Error("--duration must be at least 20 (seconds)");
const WARMUP_SECONDS = Math.min(60, DURATION_SECONDS / 5);
const SAMPLE_SECONDS = 5;
const RATE = Number(process.env.BENCH_RATE ?? 100);
const MAX_IN_FLIGHT = 200;
const RECENT_TASKS = 50;

const sandbox = await startChild("sandbox", [
  sandboxKnobs({ queuedMs: 0, runningMs: 300, retentionMs: 60_000 }),
]);
const server = await startChild("mcp", [sandbox.url], { execArgv: ["--expose-gc"] });
const client = createMcpClient(`${server.url}/mcp`, sandbox.key, { connections: MAX_IN_FLIGHT });

const recent = [];
const execute = async (index) => {
  const result = await client.callTool("svc_execute", {
    endpoint: "microblog-network/search",
    input: { query: `soak ${index}`, results_limit: 100 },
    wait_seconds: 5,
    result_limit: 10,
  });
  recent.push(result.task_id);
  if (recent.length > RECENT_TASKS) recent.shift();
};
const getTask = (index) =>
  client.callTool("svc_get_task", { task_id: recent[index % recent.length], limit: 20 });
const list = () => client.rpc("tools/list", {});
const MIX = [
  ["svc_execute", execute],
  ["svc_get_task", getTask],
  ["tools/list", list],
  ["svc_get_task", getTask],
];

const latencies = Object.fromEntries(MIX.map(([name]) => [name, []]));
const failures = [];
let inFlight = 0;
let skipped = 0;

async function send(index) {
  const [name, call] = MIX[index % MIX.length];
  inFlight++;
  const started = performance.now();
  try {
    await call(index);
    latencies[name].push(performance.now() - started);
  } catch (error) {
    failures.push(`${name}: ${error.message}`);
  } finally {
    inFlight--;
  }
}

const samples = [];
async function sample(elapsedSeconds) {
  const { memory } = await server.ask("memory");
  samples.push({ at: elapsedSeconds, rss: memory.rss });
}
const heapAfterGc = async () => (await server.ask("memory", { gc: true })).memory.heapUsed;

await execute(0);
const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;
const pending = new Set();
let index = 1;
let nextSample = 0;
let warmHeap;
while (elapsed() < DURATION_SECONDS) {
  const due = Math.floor(elapsed() * RATE);
  for (; index <= due; index++) {
    if (inFlight >= MAX_IN_FLIGHT) {
      skipped++;
      continue;
    }
    const call = send(index);
    pending.add(call);
    call.finally(() => pending.delete(call));
  }
  if (elapsed() >= nextSample) {
    await sample(Math.round(elapsed()));
    nextSample += SAMPLE_SECONDS;
    if (warmHeap === undefined && elapsed() >= WARMUP_SECONDS) warmHeap = await heapAfterGc();
  }
  await sleep(1000 / RATE);
}
await Promise.all(pending);
await sample(Math.round(elapsed()));
const endHeap = await heapAfterGc();
const sandboxRss = (await sandbox.ask("memory")).memory.rss;
const totalSeconds = elapsed();

await client.close();
await server.close();
await sandbox.close();

const warm = samples.filter((s) => s.at >= WARMUP_SECONDS);
const mean = (list) => list.reduce((sum, s) => sum + s.rss, 0) / list.length;
const startRss = mean(warm.slice(0, 3));
const endRss = mean(warm.slice(-3));
const growth = (endRss - startRss) / startRss;
const maxRss = Math.max(...warm.map((s) => s.rss));
const calls = Object.values(latencies).reduce((sum, list) => sum + list.length, 0);

console.log(machine());
console.log(
  `date: ${today()}; ${Math.round(totalSeconds)} s at ${RATE} calls/s (warm-up ${WARMUP_SECONDS} s), RSS every ${SAMPLE_SECONDS} s\n`,
);
console.log("| call | count | p50 ms | p99 ms |");
console.log("|---|---|---|---|");
for (const [name, list] of Object.entries(latencies)) {
  list.sort((a, b) => a - b);
  console.log(
    `| ${name} | ${list.length} | ${percentile(list, 50).toFixed(1)} | ${percentile(list, 99).toFixed(1)} |`,
  );
}
console.log(
  `\n${calls} calls answered (${(calls / totalSeconds).toFixed(0)}/s), ${failures.length} failed, ${skipped} not sent (${MAX_IN_FLIGHT} in flight)`,
);
console.log("\n| server process | MiB |");
console.log("|---|---|");
console.log(`| RSS after warm-up (mean of 3 samples) | ${mib(startRss)} |`);
console.log(`| RSS at the end (mean of 3 samples) | ${mib(endRss)} |`);
console.log(`| RSS max after warm-up | ${mib(maxRss)} |`);
console.log(`| heap after GC, after warm-up / at the end | ${mib(warmHeap)} / ${mib(endHeap)} |`);
console.log(`| sandbox RSS at the end (tasks kept 60 s) | ${mib(sandboxRss)} |`);
console.log(
  `\nRSS growth after warm-up: ${(growth * 100).toFixed(1)} % (goal <= 10 %: ${growth <= 0.1 ? "met" : "MISSED"})`,
);
console.log(`RSS samples (s: MiB): ${samples.map((s) => `${s.at}: ${mib(s.rss)}`).join(", ")}`);
if (failures.length > 0) console.log(`failures: ${[...new Set(failures)].slice(0, 3).join("; ")}`);
