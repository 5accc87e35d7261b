import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CallbackBody,
  callbackRetryDelayMs,
  createCallbackSender,
  shouldRetryCallback,
} from "../../src/sandbox/callbacks.js";
import { type Receiver, startReceiver } from "./receiver.js";
import { until } from "./until.js";

const body: CallbackBody = {
  task_id: "tsk_1",
  feature_code: "video_network.videos",
  public_id: "video-network-videos",
  agent: "sandbox-video-network",
  supplier: "sandbox",
  status: "succeeded",
  result_count: 2,
  output_summary: { files: [], result_count: 2 },
  error_message: null,
  created_time: "2025-01-01T00:00:00.000Z",
  finished_time: "2025-01-01T00:00:01.000Z",
};

const logger = pino({ level: "silent" });
const fast = { timeoutMs: 200, retries: 2, backoffMs: 10, logger };

describe("callback retry rule", () => {
  it.each([
    [{ status: 500 }, true],
    [{ status: 503 }, true],
    [{ status: 429 }, true],
    [{ status: 408 }, true],
    [{ status: 400 }, false],
    [{ status: 404 }, false],
    [{ error: new Error("ECONNREFUSED") }, true],
  ])("%o -> retry %s", (outcome, retry) => {
    expect(shouldRetryCallback(outcome)).toBe(retry);
  });

  it("doubles the wait on each retry", () => {
    expect([1, 2, 3].map((retry) => callbackRetryDelayMs(retry, 500))).toEqual([500, 1000, 2000]);
  });
});

describe("callback sender", () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it("POSTs the body once as JSON to a receiver that accepts it", async () => {
    receiver = await startReceiver(() => 204);
    const sender = createCallbackSender(fast);
    sender.send(receiver.url, body);
    const [first] = await receiver.waitFor(1);
    expect(first?.method).toBe("POST");
    expect(first?.headers["content-type"]).toBe("application/json");
    expect(first?.body).toEqual(body);
    await until(() => sender.stats().delivered === 1, "sender.stats().delivered === 1");
    expect(sender.stats()).toEqual({ delivered: 1, failed: 0, pending: 0 });
    await sender.close();
    expect(receiver.received).toHaveLength(1);
  });

  it("retries a failing receiver until it accepts", async () => {
    receiver = await startReceiver((attempt) => (attempt < 3 ? 503 : 200));
    const sender = createCallbackSender(fast);
    sender.send(receiver.url, body);
    await receiver.waitFor(3);
    await until(() => sender.stats().delivered === 1, "sender.stats().delivered === 1");
    await sender.close();
    expect(receiver.received).toHaveLength(3);
  });

  it("gives up after the retries on a receiver that always fails, and on one that hangs", async () => {
    receiver = await startReceiver(() => 500);
    const hanging = await startReceiver(() => "hang");
    const sender = createCallbackSender(fast);
    sender.send(receiver.url, body);
    sender.send(hanging.url, body);
    await until(() => sender.stats().failed === 2, "sender.stats().failed === 2");
    expect(receiver.received).toHaveLength(3);
    expect(hanging.received).toHaveLength(3);
    await sender.close();
    await hanging.close();
  });

  it("does not retry a receiver that refuses the request with a 4xx", async () => {
    receiver = await startReceiver(() => 400);
    const sender = createCallbackSender(fast);
    sender.send(receiver.url, body);
    await until(() => sender.stats().failed === 1, "sender.stats().failed === 1");
    await sender.close();
    expect(receiver.received).toHaveLength(1);
  });

  it("abandons pending deliveries on close without waiting for the receiver", async () => {
    receiver = await startReceiver(() => "hang");
    const sender = createCallbackSender({ ...fast, timeoutMs: 60_000 });
    sender.send(receiver.url, body);
    await receiver.waitFor(1);
    await sender.close();
    expect(sender.stats().pending).toBe(0);
  });
});
