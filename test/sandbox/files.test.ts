import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/sandbox/engine.js";
import { createFileStore, writeTaskFile } from "../../src/sandbox/files.js";
import { generateRecords } from "../../src/sandbox/records.js";
import { endpointFixture, planFixture } from "./fixtures.js";

function taskFixture(resultCount: number): Task {
  return {
    id: "tsk_0123",
    key: "k",
    endpoint: endpointFixture("professional-network/jobs"),
    plan: planFixture({ resultCount, seed: 9 }),
    callback: undefined,
    createdAt: 0,
    finishedAt: 10,
    status: "succeeded",
  };
}

async function fileBytes(task: Task): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on("data", (chunk: Buffer) => chunks.push(chunk));
  await writeTaskFile(task, sink);
  return Buffer.concat(chunks);
}

describe("task files", () => {
  const store = createFileStore(randomBytes(32));

  it("lists one raw_jsonl file whose token verifies back to the task", () => {
    const [file, ...rest] = store.list(taskFixture(3), "http://127.0.0.1:9/storage");
    expect(rest).toEqual([]);
    expect(file?.file_type).toBe("raw_jsonl");
    const match = /^http:\/\/127\.0\.0\.1:9\/storage\/([0-9a-f]{32})\/(tsk_0123\.jsonl\.gz)$/.exec(
      file?.public_url ?? "",
    );
    expect(match).not.toBeNull();
    expect(store.verify(match?.[1] ?? "", match?.[2] ?? "")).toBe("tsk_0123");
  });

  it("refuses a token of another task or another sandbox", () => {
    const url = store.list(taskFixture(3), "http://h/storage")[0]?.public_url ?? "";
    const token = url.split("/").at(-2) ?? "";
    expect(store.verify(token, "tsk_9999.jsonl.gz")).toBeUndefined();
    expect(createFileStore(randomBytes(32)).verify(token, "tsk_0123.jsonl.gz")).toBeUndefined();
    expect(store.verify("not-hex", "tsk_0123.jsonl.gz")).toBeUndefined();
  });

  it("writes the task's records as gzip JSONL, one record a line, across chunks", async () => {
    const task = taskFixture(1234);
    const lines = gunzipSync(await fileBytes(task))
      .toString()
      .split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line))).toEqual(
      generateRecords("professional-network", "jobs", 9, 0, 1234),
    );
  });

  it("writes an empty (but valid gzip) file for an empty result", async () => {
    expect(gunzipSync(await fileBytes(taskFixture(0))).length).toBe(0);
  });
});
