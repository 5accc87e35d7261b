/**
 * `svc sandbox`: the REST sandbox alone, until SIGINT/SIGTERM. Its knobs become flags (and
 * `--help` lines) from the sandbox's own knob list; each also reads its environment variable.
 */
import { type Command, Option } from "commander";
import { loadCatalog } from "../../catalog/index.js";
import { SANDBOX_KNOBS, sandboxOptionsFrom, sandboxOptionsFromEnv } from "../../sandbox/knobs.js";
import { type ListenFlags, listenConfig, processLogger, untilStopSignal } from "../lifecycle.js";
import { type CommonFlags, withJson, withListenFlags } from "../options.js";
import { createOutput } from "../output.js";

type SandboxFlags = CommonFlags & ListenFlags & Record<string, unknown>;

function defaultText(value: unknown): string {
  return Array.isArray(value) ? value.join(",") : String(value);
}

function usage(url: string, keys: string[], testInputs: Record<string, string>): string {
  return [
    `Sandbox listening on ${url}`,
    `Accepted keys: ${keys.join(", ")}`,
    "",
    "Use it from another terminal:",
    `  export SVC_BASE_URL=${url} SVC_API_KEY=${keys[0] ?? ""}`,
    `  svc run social-network/comments --input '{"urls":["https://example.com/p/1"]}' --wait 30`,
    "",
    `Test inputs: any string input equal to ${Object.values(testInputs)
      .map((value) => `"${value}"`)
      .join(", ")}.`,
    "Stop with Ctrl-C.",
  ].join("\n");
}

export function registerSandbox(program: Command): void {
  const command = withListenFlags(
    withJson(
      program
        .command("sandbox")
        .description("run the REST sandbox alone: tasks, pages, files, callbacks and credits"),
    ),
  );
  for (const knob of SANDBOX_KNOBS) {
    const help = `${knob.description} (default: ${defaultText(knob.default)}; env: ${knob.env})`;
    command.addOption(new Option(knob.flag, help));
  }
  command.action(async (flags: SandboxFlags) => {
    const config = listenConfig(flags);
    const raw: Record<string, string | undefined> = {};
    for (const knob of SANDBOX_KNOBS) raw[knob.name] = flags[knob.name] as string | undefined;
    const options = { ...sandboxOptionsFromEnv(process.env), ...sandboxOptionsFrom(raw) };
    const logger = processLogger(config, 2);
    // Loaded here, not at start-up: the other commands need neither Express nor the engine.
    const { startSandbox, TEST_INPUTS } = await import("../../sandbox/index.js");
    // Listening before start-up, so that a stop signal is never missed.
    const stopped = untilStopSignal();
    const sandbox = await startSandbox({
      ...options,
      catalog: loadCatalog(),
      port: config.port,
      host: config.host,
      logger,
    });
    const announced = { url: sandbox.url, keys: sandbox.keys };
    if (flags.json === true) createOutput(true).line(JSON.stringify(announced));
    else createOutput(false).result(announced, () => usage(sandbox.url, sandbox.keys, TEST_INPUTS));
    await stopped;
    await sandbox.close();
  });
}
