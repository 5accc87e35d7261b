// Many agents waiting at once. Run: npm run bench:concurrency (builds dist/ first).
// BENCH_CALLS (default 1,000) concurrent svc_execute calls, each submitting a task that runs
// BENCH_TASK_MS (default 5,000 ms, the sandbox's running-time knob) and waiting for it
// (wait_seconds 20). The sandbox and the MCP server run in processes of their own; this process
// only sends the calls: one undici Agent with one socket per call, each call a single stateless
// POST /mcp (no `initialize` needed) whose SSE answer is read to the end. Measured: calls answered
// with a succeeded task (goal: all), the server's peak RSS (goal <= 250 MB) and its event-loop lag
// p99 (goal <= 50 ms) over the whole burst, and this process's own lag, to show it kept up.
// BENCH_SERVER_FLAGS passes Node flags to the server process (e.g. --max-old-space-size=192).
import {
  createMcpClient,
  lagMonitor,
  machine,
  mib,
  percentile,
  sandboxKnobs,
  startChild,
  today,
} from "./harness.mjs";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const TASK_MS = Number(process.env.BENCH_TASK_MS ?? 5000);
const WAIT_SECONDS = 20;
const WARMUP_CALLS = 50;
const MB = 1e6;
const SERVER_FLAGS = (process.env.BENCH_SERVER_FLAGS ?? "").split(" ").filter(Boolean);

const sandbox = await startChild("sandbox", [
  sandboxKnobs({ queuedMs: 0, runningMs: TASK_MS, retentionMs: 600_000 }),
]);
const server = await startChild("mcp", [sandbox.url], { execArgv: SERVER_FLAGS });
const client = createMcpClient(`${server.url}/mcp`, sandbox.key, { connections: CALLS });

const execute = (index) =>
  client.callTool("svc_execute", {
    endpoint: "microblog-network/search",
    input: { query: `concurrency ${index}`, results_limit: 20 },
    wait_seconds: WAIT_SECONDS,
    result_limit: 20,
  });

async function burst(count, onAnswer = () => {}) {
  const outcomes = await Promise.allSettled(
    Array.from({ length: count }, async (_, index) => {
      const started = performance.now();
      const result = await execute(index);
      onAnswer(performance.now() - started);
      if (result.status !== "succeeded") throw new Error(`task ${result.status}`);
      return result;
    }),
  );
  const failures = outcomes.filter((outcome) => outcome.status === "rejected");
  return { succeeded: count - failures.length, failures: failures.map((f) => f.reason.message) };
}

// Warm-up with short waits of the same shape, so that start-up work is not counted.
await burst(WARMUP_CALLS);
const idle = await server.ask("memory");
const readsBefore = (await sandbox.ask("stats")).stats.taskReads;
const ownLag = lagMonitor();
await server.ask("observe");
const started = performance.now();
const durations = [];
const result = await burst(CALLS, (ms) => durations.push(ms));
const wallMs = performance.now() - started;
const observed = await server.ask("observed");
const own = ownLag.read();
const reads = (await sandbox.ask("stats")).stats.taskReads - readsBefore;

await client.close();
await server.close();
await sandbox.close();

durations.sort((a, b) => a - b);
const ms = (value) => Math.round(value);
const verdict = (met) => (met ? "met" : "MISSED");
const firstErrors = [...new Set(result.failures)].slice(0, 3).join("; ");
console.log(machine());
console.log(
  `date: ${today()}; ${CALLS} concurrent svc_execute calls on ${TASK_MS / 1000} s tasks (wait_seconds ${WAIT_SECONDS}), after ${WARMUP_CALLS} warm-up calls; server flags: ${SERVER_FLAGS.join(" ") || "none"}\n`,
);
console.log("| measure | result | goal |");
console.log("|---|---|---|");
console.log(
  `| calls answered with a succeeded task | ${result.succeeded} / ${CALLS} (${verdict(result.succeeded === CALLS)}) | all |`,
);
console.log(
  `| server peak RSS during the burst | ${(observed.rssPeak / MB).toFixed(0)} MB (idle after warm-up ${(idle.memory.rss / MB).toFixed(0)} MB) (${verdict(observed.rssPeak <= 250 * MB)}) | <= 250 MB |`,
);
console.log(
  `| server event-loop lag p99 / max | ${observed.lag.p99.toFixed(1)} / ${observed.lag.max.toFixed(1)} ms (${verdict(observed.lag.p99 <= 50)}) | p99 <= 50 ms |`,
);
console.log(
  `| call duration p50 / p99 / max | ${ms(percentile(durations, 50))} / ${ms(percentile(durations, 99))} / ${ms(durations.at(-1) ?? 0)} ms | |`,
);
console.log(`| whole burst | ${(wallMs / 1000).toFixed(2)} s | |`);
console.log(
  `| server CPU time for the burst | ${(observed.cpuMs / 1000).toFixed(2)} s (${(observed.cpuMs / CALLS).toFixed(2)} ms per call) | |`,
);
console.log(`| task reads at the sandbox | ${reads} (${(reads / CALLS).toFixed(1)} per call) | |`);
console.log(
  `| load process event-loop lag p99 / max | ${own.p99.toFixed(1)} / ${own.max.toFixed(1)} ms | |`,
);
if (firstErrors) console.log(`\nfailures: ${firstErrors}`);
console.log(`\n(server heap used after the burst: ${mib(observed.heapUsed)} MiB)`);
