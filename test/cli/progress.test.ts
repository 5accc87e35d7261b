import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createProgress } from "../../src/cli/progress.js";

function stream(isTTY: boolean) {
  const sink = Object.assign(new PassThrough(), { isTTY });
  let written = "";
  sink.on("data", (chunk: Buffer) => {
    written += chunk.toString("utf8");
  });
  return { sink, written: () => written };
}

describe("createProgress", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("draws status and elapsed time on a terminal, and clears the line when stopped", async () => {
    const { sink, written } = stream(true);
    const progress = createProgress(sink, "tsk_1");
    progress.update("running");
    await vi.advanceTimersByTimeAsync(1_500);
    progress.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    const output = written();
    expect(output).toContain("task tsk_1 running 1.5 s");
    expect(output.endsWith("\r\x1b[2K")).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("writes nothing when stderr is not a terminal", async () => {
    const { sink, written } = stream(false);
    const progress = createProgress(sink, "tsk_1");
    progress.update("running");
    await vi.advanceTimersByTimeAsync(1_000);
    progress.stop();
    expect(written()).toBe("");
    expect(vi.getTimerCount()).toBe(0);
  });
});
