/**
 * `svc run <endpoint> --input <json|@file>`: validate the input locally with the catalog, submit
 * once, and with `--wait` poll (the shared wait loop) until the task ends or the time runs out.
 */
import { readFileSync } from "node:fs";
import { type Command, Option } from "commander";
import { waitForTask } from "../../backend/index.js";
import { loadCatalog, nearestNames, UnknownEndpointError } from "../../catalog/index.js";
import { DEFAULTS } from "../../config.js";
import { withBackend } from "../backend.js";
import { CliError, EXIT } from "../exit-codes.js";
import { interruptOnSigint } from "../interrupt.js";
import {
  BACKEND_ENV_HELP,
  type CommonFlags,
  seconds,
  wholeNumber,
  withBackendFlags,
} from "../options.js";
import { createOutput } from "../output.js";
import { createProgress } from "../progress.js";
import { taskText } from "../task-text.js";

interface RunFlags extends CommonFlags {
  input: string;
  wait?: number;
  limit?: number;
  callbackUrl?: string;
}

const MAX_WAIT_SECONDS = 86_400;

/** `--input` as a JSON object: inline JSON, `@file`, or `@-` for stdin. */
function readInput(raw: string): Record<string, unknown> {
  let text = raw;
  if (raw.startsWith("@")) {
    const path = raw.slice(1);
    try {
      text = readFileSync(path === "-" ? 0 : path, "utf8");
    } catch (error) {
      throw new CliError(`--input: cannot read ${path}: ${(error as Error).message}`, EXIT.usage);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--input: not valid JSON: ${(error as Error).message}`, EXIT.usage);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CliError("--input: must be a JSON object of the endpoint's input fields", EXIT.usage);
  }
  return value as Record<string, unknown>;
}

function validInput(endpointName: string, flags: RunFlags) {
  const catalog = loadCatalog();
  const endpoint = catalog.endpoint(endpointName);
  if (endpoint === undefined) {
    const ids = catalog.endpoints.map((e) => e.public_id);
    throw new UnknownEndpointError(endpointName, nearestNames(endpointName, ids));
  }
  const input = readInput(flags.input);
  if (flags.callbackUrl !== undefined) {
    if (!endpoint.supports_callback) {
      throw new CliError(`${endpoint.public_id} does not send callbacks`, EXIT.usage);
    }
    input.callback_url = flags.callbackUrl;
  }
  const checked = catalog.validate(endpoint.public_id, input);
  if (!checked.valid) {
    throw new CliError(
      `the input breaks the schema of ${endpoint.public_id} (nothing was sent; see: svc describe ${endpoint.public_id})`,
      EXIT.usage,
      checked.violations.map((v) => `${v.path}: ${v.message}`),
    );
  }
  return { endpoint, input: checked.data };
}

export function registerRun(program: Command): void {
  withBackendFlags(
    program
      .command("run")
      .description("submit a collection; with --wait, wait for it and print the first records")
      .argument("<endpoint>", "endpoint id (platform/resource) or tool name")
      .requiredOption("--input <json|@file>", "input fields as JSON, @file.json, or @- for stdin")
      .addOption(
        new Option("--wait <seconds>", "wait up to this long for the task to finish").argParser(
          seconds(MAX_WAIT_SECONDS),
        ),
      )
      .addOption(
        new Option("--limit <n>", "records in the first page printed after --wait").argParser(
          wholeNumber(1, DEFAULTS.pageLimitMax),
        ),
      )
      .option("--callback-url <url>", "URL the backend POSTs the task summary to when it ends"),
  )
    .addHelpText("after", BACKEND_ENV_HELP)
    .action(async (endpointName: string, flags: RunFlags) => {
      const out = createOutput(flags.json === true);
      const { endpoint, input } = validInput(endpointName, flags);
      const deadlineMs = flags.wait === undefined ? undefined : Date.now() + flags.wait * 1000;
      const interrupt = interruptOnSigint();
      try {
        await withBackend(flags, async ({ client, key }) => {
          const { signal } = interrupt;
          const submitted = await client.submit(key, endpoint.public_id, input, { signal });
          const id = submitted.task_id;
          if (deadlineMs === undefined) {
            out.result(submitted, () => `Submitted task ${id} (${submitted.status}).`);
            out.note(`Read it with: svc task ${id}`);
            return;
          }
          out.note(`Submitted task ${id}; waiting up to ${flags.wait} s.`);
          const progress = createProgress(out.streams.stderr, id);
          const waited = await waitForTask(client, key, id, {
            deadlineMs,
            signal,
            limit: flags.limit,
            onPoll: (task) => progress.update(task.status),
          }).finally(() => progress.stop());
          out.result(waited.task, () => taskText(waited.task));
          if (waited.task.status === "failed") process.exitCode = EXIT.taskFailed;
          else if (waited.aborted) {
            out.note(`Stopped waiting; the task keeps running. Read it with: svc task ${id}`);
            process.exitCode = EXIT.interrupted;
          } else if (waited.timedOut) process.exitCode = EXIT.stillRunning;
        });
      } finally {
        interrupt.dispose();
      }
    });
}
