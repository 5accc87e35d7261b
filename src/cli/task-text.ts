/** Human-readable text of a task read: its state, its records of this page, what to do next. */
import type { ResultRecord, TaskRead } from "../backend/index.js";
import { oneLine } from "./output.js";

function authorOf(record: ResultRecord): string | undefined {
  const author = record.author ?? {};
  for (const field of ["username", "handle", "name", "title"]) {
    const value = author[field];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function recordLine(record: ResultRecord, index: number): string {
  const author = authorOf(record);
  const parts = [
    `${index}. [${record.type} ${record.id ?? "-"}]`,
    author && `${author}:`,
    record.text && oneLine(record.text, 100),
    record.url && `<${record.url}>`,
  ];
  return parts.filter(Boolean).join(" ");
}

export function taskText(task: TaskRead, firstIndex = 1): string {
  const id = task.task_id;
  if (task.status === "failed") {
    return `Task ${id} failed: ${task.error_message ?? "no reason given"}`;
  }
  if (task.status !== "succeeded") {
    return `Task ${id} is ${task.status}. Read it again with: svc task ${id}`;
  }
  const page = task.results ?? { items: [], next_cursor: null, has_more: false };
  const count = task.result_count ?? page.items.length;
  const lines = [`Task ${id} succeeded with ${count} result${count === 1 ? "" : "s"}.`];
  page.items.forEach((record, offset) => {
    lines.push(recordLine(record, firstIndex + offset));
  });
  if (page.has_more && page.next_cursor !== null) {
    lines.push(
      "",
      `More: svc task ${id} --cursor '${page.next_cursor}'`,
      `All:  svc task ${id} --all > records.jsonl`,
    );
  }
  return lines.join("\n");
}
