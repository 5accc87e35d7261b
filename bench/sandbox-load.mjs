// Sandbox load and memory benchmark. Run: npm run bench:sandbox (builds dist/ first).
// Prints requests per second of task reads (one 100-record page), submits and the account read
// (the baseline the others are compared with, in this one run), then the sandbox process's memory
// with 10,000 finished 100-record tasks and again once they have expired.
import { fork } from "node:child_process";
import { cpus, totalmem } from "node:os";
import autocannon from "autocannon";

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const MEMORY_TASKS = 10_000;
const RETENTION_MS = 60_000;
const SUBMIT_BODY = JSON.stringify({ query: "bench", results_limit: 100 });
const SUBMIT_PATH = "/v1/microblog-network/search";

const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill();
});

function startServer(options) {
  const child = fork(new URL("./sandbox-server.mjs", import.meta.url), [JSON.stringify(options)], {
    execArgv: ["--expose-gc"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const ask = (type) =>
    new Promise((resolve) => {
      const onMessage = (message) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        resolve(message);
      };
      child.on("message", onMessage);
      child.send({ type });
    });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("message", (ready) => {
      const close = () =>
        new Promise((done) => {
          child.once("exit", done);
          child.send({ type: "close" });
        });
      resolve({ url: ready.url, key: ready.key, ask, close });
    });
  });
}

async function load(title, server, { path, ...request }) {
  const result = await autocannon({
    url: `${server.url}${path}`,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    ...request,
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${title}: ${failures} failed requests`);
  return {
    title,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerRequest: result.throughput.average / result.requests.average,
  };
}

async function call(server, method, path, body) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body,
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
  return response.json();
}

async function until(server, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { stats } = await server.ask("stats");
    if (check(stats)) return stats;
    if (Date.now() > deadline) throw new Error("benchmark condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
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
  const { task_id: taskId } = await call(
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
  const idle = (await server.ask("memory")).memory;
  const ids = [];
  for (let batch = 0; batch < MEMORY_TASKS / 100; batch++) {
    const submits = Array.from({ length: 100 }, () =>
      call(server, "POST", SUBMIT_PATH, SUBMIT_BODY),
    );
    for (const { task_id } of await Promise.all(submits)) ids.push(task_id);
  }
  const finished = await until(server, (stats) => stats.tasksUnfinished === 0, 60_000);
  const full = (await server.ask("memory")).memory;
  for (let start = 0; start < ids.length; start += 100) {
    const reads = ids.slice(start, start + 100).map((id) => call(server, "GET", `/v1/tasks/${id}`));
    await Promise.all(reads);
  }
  const read = (await server.ask("memory")).memory;
  await until(server, (stats) => stats.tasksLive === 0, RETENTION_MS * 3);
  const expired = (await server.ask("memory")).memory;
  await server.close();
  return { idle, full, read, live: finished.tasksLive, expired };
}

const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const runs = await throughput();
const baseline = runs[0].rps;
console.log(
  `machine: ${cpus()[0]?.model} x${cpus().length}, ${mib(totalmem())} MiB, Node ${process.version}`,
);
console.log(
  `date: ${new Date().toISOString().slice(0, 10)}; ${CONNECTIONS} connections, ${DURATION_SECONDS} s each\n`,
);
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
