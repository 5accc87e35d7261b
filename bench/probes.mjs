// What a measured process reports about itself, kept apart from bench/harness.mjs so that the
// processes in bench/child.mjs load nothing else (undici alone adds about 20 MB of RSS).
import { monitorEventLoopDelay } from "node:perf_hooks";

/** Sent on the benchmark's own task reads, which the sandbox child leaves out of its counts. */
export const UNCOUNTED = { "x-bench-uncounted": "1" };

const LAG_RESOLUTION_MS = 5;

/**
 * Event-loop delay of this process: `perf_hooks.monitorEventLoopDelay` fires a 5 ms timer and
 * records the time between firings; the lag is that time minus the 5 ms interval, in ms.
 */
export function lagMonitor() {
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  histogram.enable();
  const lag = (nanoseconds) => Math.max(0, nanoseconds / 1e6 - LAG_RESOLUTION_MS);
  return {
    reset: () => histogram.reset(),
    read: () => ({
      p50: lag(histogram.percentile(50)),
      p99: lag(histogram.percentile(99)),
      max: lag(histogram.max),
      samples: histogram.count,
    }),
  };
}
