/** Ctrl-C as an AbortSignal for the duration of one command, instead of killing the process. */
export interface Interrupt {
  signal: AbortSignal;
  dispose(): void;
}

export function interruptOnSigint(): Interrupt {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}
