// Start-up time of `svc serve` with the embedded sandbox. Run: npm run bench:startup.
// RUNS times: spawn `node dist/cli/main.js serve` (SVC_BASE_URL unset, so the sandbox starts
// in-process) on a free loopback port, and ask GET /healthz every 2 ms until it answers 200. The
// time from spawn to that answer (goal: median <= 1 s) is shown next to the time a bare
// `node -e ""` takes to start and exit on this machine in the same run, so that the ratio is
// comparable across machines.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { machine, median, sleep, today } from "./harness.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const POLL_MS = 2;
const GIVE_UP_MS = 30_000;
const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", resolve);
  });
}

async function healthy(url) {
  try {
    const answer = await request(url, { headersTimeout: 1_000 });
    await answer.body.dump();
    return answer.statusCode === 200;
  } catch {
    return false;
  }
}

async function startOnce() {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info" };
  delete env.SVC_BASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, "serve"], { env, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/healthz`;
  try {
    while (!(await healthy(url))) {
      if (child.exitCode !== null) throw new Error(`svc serve exited with ${child.exitCode}`);
      if (performance.now() - started > GIVE_UP_MS) throw new Error("no /healthz answer in time");
      await sleep(POLL_MS);
    }
    return performance.now() - started;
  } finally {
    child.kill("SIGTERM");
    await exited(child);
  }
}

async function bareNode() {
  const started = performance.now();
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await exited(child);
  return performance.now() - started;
}

const serve = [];
const bare = [];
for (let run = 0; run < RUNS; run++) {
  bare.push(await bareNode());
  serve.push(await startOnce());
}

const ms = (value) => Math.round(value);
const serveMedian = median(serve);
const bareMedian = median(bare);
console.log(machine());
console.log(`date: ${today()}; ${RUNS} runs each, alternated\n`);
console.log("| measure | median ms | min ms | max ms |");
console.log("|---|---|---|---|");
console.log(
  `| spawn to /healthz 200, svc serve with the embedded sandbox | ${ms(serveMedian)} | ${ms(Math.min(...serve))} | ${ms(Math.max(...serve))} |`,
);
console.log(
  `| spawn to exit, node -e "" (baseline) | ${ms(bareMedian)} | ${ms(Math.min(...bare))} | ${ms(Math.max(...bare))} |`,
);
console.log(
  `\nstart-up median ${ms(serveMedian)} ms (goal <= 1000 ms: ${serveMedian <= 1000 ? "met" : "MISSED"}), ${(serveMedian / bareMedian).toFixed(1)} x a bare node start`,
);
