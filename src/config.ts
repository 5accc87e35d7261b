/**
 * Environment -> one typed, validated configuration object. Only entry points call
 * `loadConfig`; every other module receives the object it returns.
 */

export const DEFAULTS = {
  port: 3000,
  host: "127.0.0.1",
  docsUrl: "https://docs.svc.example/endpoints/",
  logLevel: "info",
  waitDefaultSeconds: 20,
  waitMaxSeconds: 50,
  resultLimitDefault: 20,
  resultLimitMax: 100,
  inlineMaxBytes: 64 * 1024,
  pageLimitMax: 1000,
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  maxResponseBytes: 16 * 1024 * 1024,
  authCacheSeconds: 60,
  shutdownGraceMs: 5_000,
} as const;

export interface Config {
  port: number;
  host: string;
  /** REST backend; undefined means "start the embedded sandbox". */
  baseUrl: string | undefined;
  /** Key for the stdio bridge and the CLI; never used by the HTTP server. */
  apiKey: string | undefined;
  docsUrl: string;
  logLevel: string;
  /** Extra allowed `Origin` values for /mcp (exact matches, e.g. https://app.example). */
  allowedOrigins: string[];
  /** Extra allowed `Host` values when bound to loopback (host or host:port). */
  allowedHosts: string[];
  wait: { defaultSeconds: number; maxSeconds: number };
  resultLimit: { default: number; max: number };
  /** Byte budget of the records returned inline by one tool result. */
  inlineMaxBytes: number;
  backend: {
    connectTimeoutMs: number;
    headersTimeoutMs: number;
    bodyTimeoutMs: number;
    maxResponseBytes: number;
  };
  authCacheSeconds: number;
  shutdownGraceMs: number;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    rule: string,
  ) {
    super(`${variable}: ${rule}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function list(env: Env, name: string): string[] {
  return (text(env, name) ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function url(env: Env, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(name, `must use http or https, got "${parsed.protocol}"`);
  }
  if (parsed.username || parsed.password) {
    throw new ConfigError(name, "must not carry credentials; use SVC_API_KEY");
  }
  return raw.replace(/\/+$/, "");
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function loadConfig(env: Env = process.env): Config {
  const logLevel = text(env, "LOG_LEVEL") ?? DEFAULTS.logLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(
      "LOG_LEVEL",
      `must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`,
    );
  }
  const waitMaxSeconds = integer(env, "SVC_WAIT_MAX_SECONDS", DEFAULTS.waitMaxSeconds, 0, 300);
  const resultLimitMax = integer(env, "SVC_RESULT_LIMIT_MAX", DEFAULTS.resultLimitMax, 1, 1000);
  return {
    port: integer(env, "PORT", DEFAULTS.port, 0, 65535),
    host: text(env, "HOST") ?? DEFAULTS.host,
    baseUrl: url(env, "SVC_BASE_URL"),
    apiKey: text(env, "SVC_API_KEY"),
    docsUrl: text(env, "SVC_DOCS_URL") ?? DEFAULTS.docsUrl,
    logLevel,
    allowedOrigins: list(env, "SVC_ALLOWED_ORIGINS"),
    allowedHosts: list(env, "SVC_ALLOWED_HOSTS"),
    wait: {
      defaultSeconds: integer(
        env,
        "SVC_WAIT_DEFAULT_SECONDS",
        Math.min(DEFAULTS.waitDefaultSeconds, waitMaxSeconds),
        0,
        waitMaxSeconds,
      ),
      maxSeconds: waitMaxSeconds,
    },
    resultLimit: {
      default: Math.min(DEFAULTS.resultLimitDefault, resultLimitMax),
      max: resultLimitMax,
    },
    inlineMaxBytes: integer(
      env,
      "SVC_INLINE_MAX_BYTES",
      DEFAULTS.inlineMaxBytes,
      1024,
      16 * 1024 * 1024,
    ),
    backend: {
      connectTimeoutMs: integer(
        env,
        "SVC_CONNECT_TIMEOUT_MS",
        DEFAULTS.connectTimeoutMs,
        1,
        600_000,
      ),
      headersTimeoutMs: integer(
        env,
        "SVC_HEADERS_TIMEOUT_MS",
        DEFAULTS.headersTimeoutMs,
        1,
        600_000,
      ),
      bodyTimeoutMs: integer(env, "SVC_BODY_TIMEOUT_MS", DEFAULTS.bodyTimeoutMs, 1, 600_000),
      maxResponseBytes: integer(
        env,
        "SVC_MAX_RESPONSE_BYTES",
        DEFAULTS.maxResponseBytes,
        1024,
        1024 * 1024 * 1024,
      ),
    },
    authCacheSeconds: integer(env, "SVC_AUTH_CACHE_SECONDS", DEFAULTS.authCacheSeconds, 0, 3600),
    shutdownGraceMs: integer(env, "SVC_SHUTDOWN_GRACE_MS", DEFAULTS.shutdownGraceMs, 0, 120_000),
    metricsToken: text(env, "SVC_METRICS_TOKEN"),
  };
}
