/**
 * The environment variables the code reads, found by running the readers over an environment that
 * records every name asked for: `loadConfig` (the server, stdio bridge and CLI) and the sandbox's
 * knob reader. Nothing is listed by hand, so the README and the manifests are checked against code.
 */
import { loadConfig } from "../../src/config.js";
import { sandboxOptionsFromEnv } from "../../src/sandbox/knobs.js";

function namesRead(reader: (env: Record<string, string | undefined>) => unknown): string[] {
  const names = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === "string") names.add(name);
      return undefined;
    },
  });
  reader(env);
  return [...names];
}

/** Variables of `loadConfig`, in the order it reads them. */
export function configVariables(): string[] {
  return namesRead(loadConfig);
}

/** `SVC_SANDBOX_*` variables of the embedded and standalone sandbox. */
export function sandboxVariables(): string[] {
  return namesRead(sandboxOptionsFromEnv);
}
