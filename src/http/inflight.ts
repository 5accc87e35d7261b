/**
 * The /mcp requests still being answered. Stateless Streamable HTTP gives every POST its own MCP
 * server, so a `notifications/cancelled` arrives on a different server than the request it names;
 * this registry routes it back (matched by key hash and JSON-RPC id), and lets shutdown wait for,
 * then end, whatever is still running.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";

export interface Exchange {
  keyHash: string;
  requestIds: readonly RequestId[];
  /** Ends the exchange: its handlers' signals fire and no answer is sent. */
  abort(): void;
}

export type CancelOutcome = "cancelled" | "unknown" | "ambiguous";

export interface Inflight {
  /** Registers an exchange; call the returned function when its response has ended. */
  open(exchange: Exchange): () => void;
  cancel(keyHash: string, requestId: RequestId): CancelOutcome;
  readonly size: number;
  /** Resolves true once nothing is in flight, false if `timeoutMs` passes first. */
  drained(timeoutMs: number): Promise<boolean>;
  abortAll(): void;
}

function slot(keyHash: string, id: RequestId): string {
  return `${keyHash}\u0000${typeof id}:${id}`;
}

export function createInflight(): Inflight {
  const open = new Set<Exchange>();
  const byRequest = new Map<string, Set<Exchange>>();
  let waiters: (() => void)[] = [];

  function release(exchange: Exchange): void {
    if (!open.delete(exchange)) return;
    for (const id of exchange.requestIds) {
      const key = slot(exchange.keyHash, id);
      const set = byRequest.get(key);
      set?.delete(exchange);
      if (set?.size === 0) byRequest.delete(key);
    }
    if (open.size === 0) {
      for (const wake of waiters) wake();
      waiters = [];
    }
  }

  return {
    open(exchange) {
      open.add(exchange);
      for (const id of exchange.requestIds) {
        const key = slot(exchange.keyHash, id);
        const set = byRequest.get(key) ?? new Set<Exchange>();
        set.add(exchange);
        byRequest.set(key, set);
      }
      return () => release(exchange);
    },
    cancel(keyHash, requestId) {
      const set = byRequest.get(slot(keyHash, requestId));
      if (!set || set.size === 0) return "unknown";
      // Two clients of one key may reuse an id; cancelling the wrong one would be worse than none.
      if (set.size > 1) return "ambiguous";
      const [exchange] = set;
      exchange?.abort();
      return "cancelled";
    },
    get size() {
      return open.size;
    },
    drained(timeoutMs) {
      if (open.size === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== wake);
          resolve(false);
        }, timeoutMs);
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        waiters.push(wake);
      });
    },
    abortAll() {
      for (const exchange of [...open]) exchange.abort();
    },
  };
}
