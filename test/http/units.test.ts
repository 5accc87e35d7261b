/** Pure pieces of the HTTP layer: the key verifier's cache, the in-flight registry, linked signals. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthenticationError, ConnectionError } from "../../src/backend/index.js";
import { createKeyVerifier, hashKey } from "../../src/http/auth.js";
import { createInflight } from "../../src/http/inflight.js";
import { createLogger } from "../../src/log.js";
import { linkedSignal } from "../../src/mcp/linked-signal.js";

const logger = createLogger("silent");
const caller = (key: string) => ({ apiKey: key, keyHash: hashKey(key) });

describe("createKeyVerifier", () => {
  afterEach(() => vi.useRealTimers());

  function verifierWith(answer: (key: string) => Promise<unknown>, cacheSeconds = 60) {
    const getAccount = vi.fn(answer);
    const verifier = createKeyVerifier({ backend: { getAccount } as never, cacheSeconds, logger });
    return { verifier, getAccount };
  }

  it("asks the backend once per key hash within the cache time, then again", async () => {
    vi.useFakeTimers();
    const { verifier, getAccount } = verifierWith(async () => ({ key_id: "k" }));
    expect(await verifier.verify(caller("good"))).toBe("valid");
    vi.advanceTimersByTime(59_000);
    expect(await verifier.verify(caller("good"))).toBe("valid");
    expect(getAccount).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2_000);
    expect(await verifier.verify(caller("good"))).toBe("valid");
    expect(getAccount).toHaveBeenCalledTimes(2);
  });

  it("shares one backend question between concurrent checks of one key", async () => {
    const { verifier, getAccount } = verifierWith(async () => ({ key_id: "k" }));
    const verdicts = await Promise.all([1, 2, 3].map(() => verifier.verify(caller("same"))));
    expect(verdicts).toEqual(["valid", "valid", "valid"]);
    expect(getAccount).toHaveBeenCalledTimes(1);
  });

  it("caches a rejection, but never an unanswered check", async () => {
    const rejecting = verifierWith(async () => {
      throw new AuthenticationError({ code: "unauthorized", message: "no", status: 401 });
    });
    expect(await rejecting.verifier.verify(caller("bad"))).toBe("rejected");
    expect(await rejecting.verifier.verify(caller("bad"))).toBe("rejected");
    expect(rejecting.getAccount).toHaveBeenCalledTimes(1);

    const down = verifierWith(async () => {
      throw new ConnectionError({ code: "unreachable", message: "down" });
    });
    expect(await down.verifier.verify(caller("any"))).toBe("unverified");
    expect(await down.verifier.verify(caller("any"))).toBe("unverified");
    expect(down.getAccount).toHaveBeenCalledTimes(2);
  });

  it("does not cache when the cache time is 0", async () => {
    const { verifier, getAccount } = verifierWith(async () => ({ key_id: "k" }), 0);
    await verifier.verify(caller("k"));
    await verifier.verify(caller("k"));
    expect(getAccount).toHaveBeenCalledTimes(2);
  });
});

describe("createInflight", () => {
  it("cancels the one exchange holding a key's request id", () => {
    const inflight = createInflight();
    const abort = vi.fn();
    const release = inflight.open({ keyHash: "h1", requestIds: [3, "x"], abort });
    expect(inflight.cancel("h2", 3)).toBe("unknown");
    expect(inflight.cancel("h1", "3")).toBe("unknown");
    expect(inflight.cancel("h1", 3)).toBe("cancelled");
    expect(abort).toHaveBeenCalledTimes(1);
    release();
    expect(inflight.cancel("h1", "x")).toBe("unknown");
    expect(inflight.size).toBe(0);
  });

  it("cancels nothing when two exchanges of one key share the id", () => {
    const inflight = createInflight();
    const a = vi.fn();
    const b = vi.fn();
    inflight.open({ keyHash: "h", requestIds: [1], abort: a });
    inflight.open({ keyHash: "h", requestIds: [1], abort: b });
    expect(inflight.cancel("h", 1)).toBe("ambiguous");
    expect(a).not.toHaveBeenCalled();
    expect(b).not.toHaveBeenCalled();
  });

  it("reports draining, or the timeout", async () => {
    vi.useFakeTimers();
    const inflight = createInflight();
    expect(await inflight.drained(10)).toBe(true);
    const release = inflight.open({ keyHash: "h", requestIds: [], abort: () => release() });
    const timedOut = inflight.drained(100);
    vi.advanceTimersByTime(100);
    expect(await timedOut).toBe(false);
    const drained = inflight.drained(100);
    inflight.abortAll();
    expect(await drained).toBe(true);
    vi.useRealTimers();
  });
});

describe("linkedSignal", () => {
  it("fires when any source fires and leaves no listener behind", () => {
    const long = new AbortController();
    const short = new AbortController();
    const link = linkedSignal([long.signal, undefined, short.signal]);
    short.abort("why");
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe("why");
    link.dispose();
    const other = linkedSignal([long.signal]);
    other.dispose();
    long.abort();
    expect(other.signal.aborted).toBe(false);
  });

  it("starts aborted when a source already is", () => {
    const done = new AbortController();
    done.abort("early");
    expect(linkedSignal([done.signal]).signal.reason).toBe("early");
  });
});
