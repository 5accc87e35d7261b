/**
 * `svc task <task-id>`: read a task's status and one page of records; `--all` streams every record
 * as JSONL, following `next_cursor` until the last page.
 */
import { type Command, Option } from "commander";
import type { TaskRead } from "../../backend/index.js";
import { DEFAULTS } from "../../config.js";
import type { Backend } from "../backend.js";
import { withBackend } from "../backend.js";
import { CliError, EXIT } from "../exit-codes.js";
import { BACKEND_ENV_HELP, type CommonFlags, wholeNumber, withBackendFlags } from "../options.js";
import { createOutput, type Output } from "../output.js";
import { taskText } from "../task-text.js";

interface TaskFlags extends CommonFlags {
  limit?: number;
  cursor?: string;
  all?: boolean;
}

/** Stops a backend whose cursors never end; far above any real task's page count. */
const MAX_PAGES = 1_000_000;

function notReadable(task: TaskRead): CliError | undefined {
  if (task.status === "failed") {
    return new CliError(
      `task ${task.task_id} failed: ${task.error_message ?? "no reason given"}`,
      EXIT.taskFailed,
    );
  }
  if (task.status !== "succeeded") {
    return new CliError(
      `task ${task.task_id} is ${task.status}; its records are readable once it has succeeded`,
      EXIT.stillRunning,
    );
  }
  return undefined;
}

/** Writes every record once, one JSON object a line; returns how many were written. */
async function streamAll(backend: Backend, taskId: string, flags: TaskFlags, out: Output) {
  const { client, key } = backend;
  const seen = new Set<string>();
  let cursor = flags.cursor;
  let written = 0;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const task = await client.getTask(key, taskId, { limit: flags.limit, cursor });
    const problem = notReadable(task);
    if (problem) throw problem;
    const page = task.results ?? { items: [], next_cursor: null, has_more: false };
    for (const record of page.items) out.line(JSON.stringify(record));
    written += page.items.length;
    if (!page.has_more) return written;
    if (page.next_cursor === null || seen.has(page.next_cursor)) {
      throw new CliError("the backend reported more records but gave no new cursor", EXIT.backend);
    }
    seen.add(page.next_cursor);
    cursor = page.next_cursor;
  }
  throw new CliError(`stopped after ${MAX_PAGES} pages`, EXIT.backend);
}

export function registerTask(program: Command): void {
  withBackendFlags(
    program
      .command("task")
      .description("read a task: status and a page of records; --all streams every record")
      .argument("<task-id>", "id printed by `svc run`")
      .addOption(
        new Option("--limit <n>", "records per page (backend default when absent)").argParser(
          wholeNumber(1, DEFAULTS.pageLimitMax),
        ),
      )
      .option("--cursor <cursor>", "next_cursor of the previous page, passed unchanged")
      .option("--all", "print every record as JSON Lines, following the cursor to the end"),
  )
    .addHelpText("after", BACKEND_ENV_HELP)
    .action(async (taskId: string, flags: TaskFlags) => {
      const out = createOutput(flags.json === true);
      await withBackend(flags, async (backend) => {
        if (flags.all) {
          const written = await streamAll(backend, taskId, flags, out);
          out.note(`${written} record${written === 1 ? "" : "s"} written.`);
          return;
        }
        const query = { limit: flags.limit, cursor: flags.cursor };
        const task = await backend.client.getTask(backend.key, taskId, query);
        out.result(task, () => taskText(task));
        if (task.status === "failed") process.exitCode = EXIT.taskFailed;
      });
    });
}
