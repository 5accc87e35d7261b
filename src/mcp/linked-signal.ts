/**
 * One AbortSignal that fires when any source fires. Unlike `AbortSignal.any`, the listeners on
 * long-lived sources (the shutdown signal) are removed by `dispose`, so nothing accumulates on
 * them across millions of calls.
 */
export interface LinkedSignal {
  signal: AbortSignal;
  dispose(): void;
}

export function linkedSignal(sources: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const present = sources.filter((s): s is AbortSignal => s !== undefined);
  const already = present.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, dispose() {} };
  }
  const listeners = present.map((source) => {
    const listener = () => controller.abort(source.reason);
    source.addEventListener("abort", listener, { once: true });
    return () => source.removeEventListener("abort", listener);
  });
  return {
    signal: controller.signal,
    dispose() {
      for (const remove of listeners) remove();
    },
  };
}
