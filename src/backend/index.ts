/** The backend: REST client, typed errors, retry policy and the shared wait loop. */
export {
  type BackendClient,
  type BackendClientOptions,
  CLIENT_DEFAULTS,
  createBackendClient,
  type RequestOptions,
  ROUTES,
  type TaskQuery,
} from "./client.js";
export * from "./errors.js";
export {
  NOT_SENT_CODES,
  parseRetryAfter,
  RETRY_POLICY,
  type RetryDecision,
  type RetryInput,
  shouldRetry,
} from "./retry.js";
export type { ExchangeReport } from "./transport.js";
export * from "./types.js";
export {
  type Backoff,
  DEFAULT_BACKOFF,
  type TaskReader,
  type WaitOptions,
  type WaitResult,
  waitForTask,
} from "./wait.js";
