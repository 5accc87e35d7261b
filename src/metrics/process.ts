/**
 * The process's own metrics (CPU, memory, event-loop lag, GC, handles): prom-client's default set,
 * collected once per process into a registry of its own (not prom-client's global one), since every
 * app in the process shares one event loop and one heap.
 */
import { collectDefaultMetrics, Registry } from "prom-client";

let shared: Registry | undefined;

export function processRegistry(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
