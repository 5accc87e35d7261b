/**
 * Raw result files: one gzip JSONL file per succeeded task (one record a line), served under the
 * storage URL. The path carries a token derived from the task id with the sandbox's secret, so a
 * `public_url` works without the Authorization header and cannot be guessed from the task id.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { TaskFile } from "../backend/types.js";
import type { Task } from "./engine.js";
import { generateRecords } from "./records.js";

export const STORAGE_PREFIX = "/storage";
const LINES_PER_CHUNK = 500;

export interface FileStore {
  /** The files of a succeeded task; `storageUrl` is where `/storage` is reachable. */
  list(task: Task, storageUrl: string): TaskFile[];
  /** The task id a storage path names, when its token is genuine. */
  verify(token: string, fileName: string): string | undefined;
}

export function fileNameOf(taskId: string): string {
  return `${taskId}.jsonl.gz`;
}

export function createFileStore(secret: Buffer): FileStore {
  const tokenOf = (taskId: string): Buffer =>
    createHmac("sha256", secret).update(`storage:${taskId}`).digest().subarray(0, 16);

  return {
    list(task, storageUrl) {
      const token = tokenOf(task.id).toString("hex");
      return [
        { file_type: "raw_jsonl", public_url: `${storageUrl}/${token}/${fileNameOf(task.id)}` },
      ];
    },
    verify(token, fileName) {
      if (!fileName.endsWith(".jsonl.gz") || !/^[0-9a-f]{32}$/.test(token)) return undefined;
      const taskId = fileName.slice(0, -".jsonl.gz".length);
      const expected = tokenOf(taskId);
      return timingSafeEqual(Buffer.from(token, "hex"), expected) ? taskId : undefined;
    },
  };
}

function* jsonLines(task: Task): Generator<string> {
  const { platform, resource } = task.endpoint;
  const { seed, resultCount } = task.plan;
  for (let start = 0; start < resultCount; start += LINES_PER_CHUNK) {
    const end = Math.min(resultCount, start + LINES_PER_CHUNK);
    const records = generateRecords(platform, resource, seed, start, end);
    yield records.map((record) => `${JSON.stringify(record)}\n`).join("");
  }
}

/** Writes the task's records as gzip JSONL, produced chunk by chunk so memory stays flat. */
export function writeTaskFile(task: Task, destination: Writable): Promise<void> {
  return pipeline(Readable.from(jsonLines(task)), createGzip(), destination);
}
