/** The sandbox: a local implementation of the collection service's REST interface. */
export {
  createSandboxApp,
  type SandboxApp,
  type SandboxAppOptions,
  type SandboxStats,
} from "./app.js";
export type { CallbackBody } from "./callbacks.js";
export { keyFingerprint } from "./http.js";
export {
  DEFAULT_SANDBOX_KEY,
  defaultSandboxOptions,
  resolveSandboxOptions,
  SANDBOX_KNOBS,
  type SandboxKnob,
  type SandboxOptions,
  sandboxOptionsFrom,
  sandboxOptionsFromEnv,
} from "./knobs.js";
export { TEST_INPUTS } from "./plan.js";
export { type RunningSandbox, type StartSandboxOptions, startSandbox } from "./server.js";
