/**
 * Every tunable of the sandbox as data: one descriptor per knob gives its option name, CLI flag,
 * environment variable, description, default and parser. The CLI builds `--flags` and `--help`
 * from this list and the README lists it, so adding a knob is adding one entry here.
 */
import { ConfigError } from "../config.js";

export interface SandboxOptions {
  /** Accepted API keys; each has its own tasks and credits. */
  keys: string[];
  /** How long a task stays `queued`; 0 makes a submit answer `running`. */
  queuedMs: number;
  /** How long a task stays `running` before it reaches a terminal state. */
  runningMs: number;
  /** Running time of a task whose input holds `sandbox:slow`. */
  slowMs: number;
  /** Share of tasks (0..1) that fail at random. */
  failureRate: number;
  /** How long a finished task (and its files) stays readable. */
  retentionMs: number;
  /** At most this many tasks are kept; the oldest finished ones are dropped first. */
  maxTasks: number;
  /** Credits each key starts with. */
  startingCredits: number;
  /** Requests per second allowed per key; 0 means no limit. */
  rateLimit: number;
  /** Page size of `GET /v1/tasks/{id}` when `limit` is absent. */
  pageLimitDefault: number;
  /** Largest accepted `limit`. */
  pageLimitMax: number;
  /** Largest accepted request body. */
  maxBodyBytes: number;
  /** Time allowed to one callback attempt. */
  callbackTimeoutMs: number;
  /** Further attempts after a failed callback. */
  callbackRetries: number;
  /** Wait before the first retry; doubles each time. */
  callbackBackoffMs: number;
}

export interface SandboxKnob<K extends keyof SandboxOptions = keyof SandboxOptions> {
  name: K;
  /** Commander-style flag; its camelCase form equals `name`. */
  flag: string;
  env: string;
  description: string;
  default: SandboxOptions[K];
  parse(raw: string): SandboxOptions[K];
}

function wholeNumber(min: number, max: number) {
  return (raw: string): number => {
    const trimmed = raw.trim();
    if (!/^\d+$/.test(trimmed)) throw new Error(`must be a whole number, got "${raw}"`);
    const value = Number(trimmed);
    if (value < min || value > max) {
      throw new Error(`must be between ${min} and ${max}, got ${value}`);
    }
    return value;
  };
}

function decimal(min: number, max: number) {
  return (raw: string): number => {
    const trimmed = raw.trim();
    const value = Number(trimmed);
    if (trimmed === "" || !Number.isFinite(value)) {
      throw new Error(`must be a number, got "${raw}"`);
    }
    if (value < min || value > max) {
      throw new Error(`must be between ${min} and ${max}, got ${value}`);
    }
    return value;
  };
}

function keyList(raw: string): string[] {
  const keys = raw
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
  if (keys.length === 0) throw new Error("must name at least one key");
  if (keys.some((key) => /\s/.test(key))) throw new Error("keys must not contain whitespace");
  return [...new Set(keys)];
}

function knob<K extends keyof SandboxOptions>(entry: SandboxKnob<K>): SandboxKnob<K> {
  return entry;
}

const DAY_MS = 86_400_000;

/** The public, documented key of a sandbox whose keys were not configured. */
export const DEFAULT_SANDBOX_KEY = "sandbox-key";

export const SANDBOX_KNOBS = [
  knob({
    name: "keys",
    flag: "--keys <a,b>",
    env: "SVC_SANDBOX_KEYS",
    description: "accepted API keys, comma separated; each has its own tasks and credits",
    default: [DEFAULT_SANDBOX_KEY],
    parse: keyList,
  }),
  knob({
    name: "queuedMs",
    flag: "--queued-ms <ms>",
    env: "SVC_SANDBOX_QUEUED_MS",
    description: "time a task stays queued (0: a submit already answers running)",
    default: 300,
    parse: wholeNumber(0, DAY_MS),
  }),
  knob({
    name: "runningMs",
    flag: "--running-ms <ms>",
    env: "SVC_SANDBOX_RUNNING_MS",
    description: "time a task stays running before it succeeds or fails",
    default: 1200,
    parse: wholeNumber(0, DAY_MS),
  }),
  knob({
    name: "slowMs",
    flag: "--slow-ms <ms>",
    env: "SVC_SANDBOX_SLOW_MS",
    description: 'running time of a task whose input holds "sandbox:slow"',
    default: 10_000,
    parse: wholeNumber(0, DAY_MS),
  }),
  knob({
    name: "failureRate",
    flag: "--failure-rate <0..1>",
    env: "SVC_SANDBOX_FAILURE_RATE",
    description: "share of tasks that fail at random",
    default: 0,
    parse: decimal(0, 1),
  }),
  knob({
    name: "retentionMs",
    flag: "--retention-ms <ms>",
    env: "SVC_SANDBOX_RETENTION_MS",
    description: "how long a finished task and its files stay readable",
    default: 3_600_000,
    parse: wholeNumber(1, 30 * DAY_MS),
  }),
  knob({
    name: "maxTasks",
    flag: "--max-tasks <n>",
    env: "SVC_SANDBOX_MAX_TASKS",
    description: "tasks kept at most; the oldest finished ones are dropped first",
    default: 100_000,
    parse: wholeNumber(1, 10_000_000),
  }),
  knob({
    name: "startingCredits",
    flag: "--starting-credits <n>",
    env: "SVC_SANDBOX_STARTING_CREDITS",
    description: "credits each key starts with",
    default: 10_000,
    parse: decimal(0, 1e12),
  }),
  knob({
    name: "rateLimit",
    flag: "--rate-limit <per-second>",
    env: "SVC_SANDBOX_RATE_LIMIT",
    description: "requests per second allowed per key, answered 429 beyond (0: no limit)",
    default: 0,
    parse: decimal(0, 1e6),
  }),
  knob({
    name: "pageLimitDefault",
    flag: "--page-limit-default <n>",
    env: "SVC_SANDBOX_PAGE_LIMIT_DEFAULT",
    description: "records per page when a task read gives no limit",
    default: 100,
    parse: wholeNumber(1, 100_000),
  }),
  knob({
    name: "pageLimitMax",
    flag: "--page-limit-max <n>",
    env: "SVC_SANDBOX_PAGE_LIMIT_MAX",
    description: "largest accepted limit of a task read",
    default: 1000,
    parse: wholeNumber(1, 100_000),
  }),
  knob({
    name: "maxBodyBytes",
    flag: "--max-body-bytes <n>",
    env: "SVC_SANDBOX_MAX_BODY_BYTES",
    description: "largest accepted request body, answered 413 beyond",
    default: 1024 * 1024,
    parse: wholeNumber(1, 1024 * 1024 * 1024),
  }),
  knob({
    name: "callbackTimeoutMs",
    flag: "--callback-timeout-ms <ms>",
    env: "SVC_SANDBOX_CALLBACK_TIMEOUT_MS",
    description: "time allowed to one callback attempt",
    default: 5000,
    parse: wholeNumber(1, 600_000),
  }),
  knob({
    name: "callbackRetries",
    flag: "--callback-retries <n>",
    env: "SVC_SANDBOX_CALLBACK_RETRIES",
    description: "further attempts after a failed callback",
    default: 3,
    parse: wholeNumber(0, 20),
  }),
  knob({
    name: "callbackBackoffMs",
    flag: "--callback-backoff-ms <ms>",
    env: "SVC_SANDBOX_CALLBACK_BACKOFF_MS",
    description: "wait before the first callback retry; doubles on each retry",
    default: 500,
    parse: wholeNumber(0, 600_000),
  }),
] as const satisfies readonly SandboxKnob[];

export function defaultSandboxOptions(): SandboxOptions {
  const options: Record<string, unknown> = {};
  for (const entry of SANDBOX_KNOBS) {
    options[entry.name] = Array.isArray(entry.default) ? [...entry.default] : entry.default;
  }
  return options as unknown as SandboxOptions;
}

type RawValues = Record<string, string | undefined>;

function parseKnobs(
  values: RawValues,
  lookup: (entry: SandboxKnob) => string,
  label: (entry: SandboxKnob) => string,
): Partial<SandboxOptions> {
  const options: Record<string, unknown> = {};
  for (const entry of SANDBOX_KNOBS as readonly SandboxKnob[]) {
    const raw = values[lookup(entry)];
    if (raw === undefined || raw.trim() === "") continue;
    try {
      options[entry.name] = entry.parse(raw);
    } catch (error) {
      throw new ConfigError(label(entry), (error as Error).message);
    }
  }
  return options as Partial<SandboxOptions>;
}

/** Options from `SVC_SANDBOX_*` variables; a bad value throws a ConfigError naming the variable. */
export function sandboxOptionsFromEnv(env: RawValues): Partial<SandboxOptions> {
  return parseKnobs(
    env,
    (entry) => entry.env,
    (entry) => entry.env,
  );
}

/**
 * Options from raw strings keyed by knob name (what commander hands back for the flags above);
 * a bad value throws a ConfigError naming the flag.
 */
export function sandboxOptionsFrom(values: RawValues): Partial<SandboxOptions> {
  return parseKnobs(
    values,
    (entry) => entry.name,
    (entry) => entry.flag.split(" ")[0] ?? entry.flag,
  );
}

/** Fills defaults and checks the rules that tie knobs together. */
export function resolveSandboxOptions(partial: Partial<SandboxOptions>): SandboxOptions {
  const options = { ...defaultSandboxOptions(), ...stripUndefined(partial) };
  if (options.keys.length === 0) throw new ConfigError("keys", "must name at least one key");
  if (options.pageLimitDefault > options.pageLimitMax) {
    throw new ConfigError(
      "pageLimitDefault",
      `must not exceed pageLimitMax (${options.pageLimitMax}), got ${options.pageLimitDefault}`,
    );
  }
  return options;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}
