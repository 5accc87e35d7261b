// How soon a waiting svc_execute notices that its task finished. Run: npm run bench:wait.
// For each task duration (BENCH_DURATIONS, seconds, comma separated), a sandbox whose tasks run
// exactly that long and an MCP server in front of it, each in its own process; all pairs run at
// once, each warmed up first. CALLS svc_execute calls per duration (wait_seconds 50). For each call: the lag from the
// task's `finished_time` (the sandbox's clock) to the moment its answer was read here (same
// machine clock), against the goal max(250 ms, 10 % of the time since the task was created),
// and the task reads it cost, counted at the sandbox (goal: O(log t)).
import {
  createMcpClient,
  machine,
  median,
  rest,
  sandboxKnobs,
  startChild,
  today,
} from "./harness.mjs";

const DURATIONS = (process.env.BENCH_DURATIONS ?? "0.5,1,2,3.5,5,7.5,10,15,20,30,40")
  .split(",")
  .map(Number);
const CALLS = 3;
const WAIT_SECONDS = 50;
const WARMUP_CALLS = 20;

async function measure(seconds) {
  const sandbox = await startChild("sandbox", [
    sandboxKnobs({ queuedMs: 0, runningMs: Math.round(seconds * 1000) }),
  ]);
  const server = await startChild("mcp", [sandbox.url]);
  const client = createMcpClient(`${server.url}/mcp`, sandbox.key);
  const execute = (query, waitSeconds) =>
    client.callTool("svc_execute", {
      endpoint: "microblog-network/search",
      input: { query, results_limit: 10 },
      wait_seconds: waitSeconds,
      result_limit: 10,
    });
  // Warm-up: the first calls of a fresh process pay for compiling and connecting.
  for (let index = 0; index < WARMUP_CALLS; index++) await execute(`warm-up ${index}`, 0);
  return {
    seconds,
    async run() {
      const calls = Array.from({ length: CALLS }, async (_, index) => {
        const result = await execute(`wait ${seconds} ${index}`, WAIT_SECONDS);
        const returnedAt = Date.now();
        if (result.status !== "succeeded") throw new Error(`${seconds} s: task ${result.status}`);
        const task = await rest(sandbox, "GET", `/v1/tasks/${result.task_id}?limit=1`);
        return {
          taskId: result.task_id,
          lagMs: returnedAt - Date.parse(task.finished_time),
          elapsedMs: returnedAt - Date.parse(task.created_time),
        };
      });
      const answers = await Promise.all(calls);
      const { readsByTask } = (await sandbox.ask("stats")).stats;
      await client.close();
      await server.close();
      await sandbox.close();
      return answers.map((answer) => ({ ...answer, reads: readsByTask[answer.taskId] ?? 0 }));
    },
  };
}

const pairs = [];
for (const seconds of DURATIONS) pairs.push(await measure(seconds));
const rows = await Promise.all(
  pairs.map(async (pair) => ({ seconds: pair.seconds, calls: await pair.run() })),
);

console.log(machine());
console.log(
  `date: ${today()}; ${CALLS} svc_execute calls per task duration (wait_seconds ${WAIT_SECONDS}), medians shown\n`,
);
console.log(
  "| task duration s | time to answer s | lag after finished_time ms | goal ms | within goal | task reads |",
);
console.log("|---|---|---|---|---|---|");
let allMet = true;
for (const { seconds, calls } of rows) {
  const met = calls.filter((c) => c.lagMs <= Math.max(250, 0.1 * c.elapsedMs)).length;
  allMet &&= met === calls.length;
  const elapsed = median(calls.map((c) => c.elapsedMs));
  const goal = Math.max(250, 0.1 * elapsed);
  console.log(
    `| ${seconds} | ${(elapsed / 1000).toFixed(2)} | ${median(calls.map((c) => c.lagMs))} (max ${Math.max(...calls.map((c) => c.lagMs))}) | ${Math.round(goal)} | ${met} / ${calls.length} | ${median(calls.map((c) => c.reads))} |`,
  );
}
console.log(`\nevery answer within max(250 ms, 10 % of elapsed): ${allMet ? "met" : "MISSED"}`);
