/**
 * The backend the client commands talk to: address and key from the environment (the key only
 * from SVC_API_KEY), timeouts from `loadConfig`, one client per process, closed after the command.
 */
import { type BackendClient, createBackendClient } from "../backend/index.js";
import { type Config, ConfigError, loadConfig } from "../config.js";
import { CliError, EXIT } from "./exit-codes.js";

export interface Backend {
  client: BackendClient;
  key: string;
  config: Config;
}

type Env = Record<string, string | undefined>;

const NO_BASE_URL =
  "SVC_BASE_URL is not set. Client commands talk to a running backend: set SVC_BASE_URL to " +
  "the service's address, or run `svc sandbox` in another terminal and use the URL it prints. " +
  "(No sandbox is started here: its tasks would vanish when this command exits.)";

const NO_KEY =
  "SVC_API_KEY is not set. Export the API key in the environment (it is never accepted as a " +
  "flag, to keep it out of shell history and process lists).";

function configFor(flags: { baseUrl?: string | undefined }, env: Env = process.env): Config {
  if (flags.baseUrl === undefined) return loadConfig(env);
  try {
    return loadConfig({ ...env, SVC_BASE_URL: flags.baseUrl });
  } catch (error) {
    if (error instanceof ConfigError && error.variable === "SVC_BASE_URL") {
      throw new CliError(error.message.replace(/^SVC_BASE_URL/, "--base-url"), EXIT.usage);
    }
    throw error;
  }
}

/** Runs `use` with a client for the configured backend, and closes the client afterwards. */
export async function withBackend<T>(
  flags: { baseUrl?: string | undefined },
  use: (backend: Backend) => Promise<T>,
): Promise<T> {
  const config = configFor(flags);
  if (config.baseUrl === undefined) throw new CliError(NO_BASE_URL, EXIT.usage);
  if (config.apiKey === undefined) throw new CliError(NO_KEY, EXIT.usage);
  const client = createBackendClient({
    baseUrl: config.baseUrl,
    ...config.backend,
    userAgent: "svc-cli",
  });
  try {
    return await use({ client, key: config.apiKey, config });
  } finally {
    await client.close();
  }
}
