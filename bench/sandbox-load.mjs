// Sandbox load and memory benchmark. Run: npm run bench:sandbox (builds dist/ first).
// Prints requests per second of task reads (one 100-record page), submits and the account read
// (the baseline the others are compared with, in this one run), then the sandbox process's memory
// with 10,000 finished 100-record tasks and again once they have expired.
import {
  load as loadPhase,
  machine,
  mib,
  rest,
  sandboxKnobs,
  sleep,
  startChild,
  today,
} from "./harness.mjs";

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const MEMORY_TASKS = 10_000;
const RETENTION_MS = 60_000;
const SUBMIT_BODY = JSON.stringify({ query: "bench", results_limit: 100 });
const SUBMIT_PATH = "/v1/microblog-network/search";

/** The sandbox in a process of its own, with --expose-gc so that memory is read after a GC. */
const startServer = (knobs) =>
  startChild("sandbox", [sandboxKnobs(knobs)], { execArgv: ["--expose-gc"] });

async function load(title, server, { path, ...request }) {
  const result = await loadPhase(`${server.url}${path}`, {
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    ...request,
  });
  return { title, ...result };
}

async function until(server, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { stats } = await server.ask("stats");
    if (check(stats)) return stats;
    if (Date.now() > deadline) throw new Error("benchmark condition not reached in time");
    await sleep(200);
  }
}

async function throughput() {
  const server = await startServer({
    queuedMs: 0,
    runningMs: 50,
    startingCredits: 1e12,
    retentionMs: 60_000,
    maxTasks: 1_000_000,
  });
  const { task_id: taskId } = await rest(
    server,
    "POST",
    SUBMIT_PATH,
    JSON.stringify({ query: "read", results_limit: 1000 }),
  );
  await until(server, (stats) => stats.tasksUnfinished === 0, 10_000);
  const runs = [
    await load("GET /v1/account (baseline)", server, { path: "/v1/account" }),
    await load("GET /v1/tasks/{id}?limit=100", server, { path: `/v1/tasks/${taskId}?limit=100` }),
    await load(`POST ${SUBMIT_PATH}`, server, {
      path: SUBMIT_PATH,
      method: "POST",
      body: SUBMIT_BODY,
    }),
  ];
  await server.close();
  return runs;
}

async function memory() {
  const server = await startServer({
    queuedMs: 0,
    runningMs: 20,
    startingCredits: 1e12,
    retentionMs: RETENTION_MS,
  });
  const measure = async () => (await server.ask("memory", { gc: true })).memory;
  const idle = await measure();
  const ids = [];
  for (let batch = 0; batch < MEMORY_TASKS / 100; batch++) {
    const submits = Array.from({ length: 100 }, () =>
      rest(server, "POST", SUBMIT_PATH, SUBMIT_BODY),
    );
    for (const { task_id } of await Promise.all(submits)) ids.push(task_id);
  }
  const finished = await until(server, (stats) => stats.tasksUnfinished === 0, 60_000);
  const full = await measure();
  for (let start = 0; start < ids.length; start += 100) {
    const reads = ids.slice(start, start + 100).map((id) => rest(server, "GET", `/v1/tasks/${id}`));
    await Promise.all(reads);
  }
  const read = await measure();
  await until(server, (stats) => stats.tasksLive === 0, RETENTION_MS * 3);
  const expired = await measure();
  await server.close();
  return { idle, full, read, live: finished.tasksLive, expired };
}

const runs = await throughput();
const baseline = runs[0].rps;
console.log(machine());
console.log(`date: ${today()}; ${CONNECTIONS} connections, ${DURATION_SECONDS} s each\n`);
console.log("| request | req/s | ratio to baseline | p50 ms | p99 ms | bytes/response |");
console.log("|---|---|---|---|---|---|");
for (const run of runs) {
  const ratio = (run.rps / baseline).toFixed(2);
  console.log(
    `| ${run.title} | ${Math.round(run.rps)} | ${ratio} | ${run.p50} | ${run.p99} | ${Math.round(run.bytesPerRequest)} |`,
  );
}
const { idle, full, read, live, expired } = await memory();
const memoryRow = (label, { rss, heapUsed }) =>
  console.log(`| ${label} | ${mib(rss)} | ${mib(heapUsed)} |`);
console.log("\n| sandbox process | RSS MiB | heap used MiB |");
console.log("|---|---|---|");
memoryRow("idle", idle);
memoryRow(`${live} finished tasks of 100 records`, full);
memoryRow("the same, after reading each task's page once", read);
memoryRow(`after they expired (retention ${RETENTION_MS / 1000} s)`, expired);
