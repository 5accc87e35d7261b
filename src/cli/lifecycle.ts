/**
 * Shared pieces of the commands that run until stopped (serve, sandbox, stdio): configuration
 * with `--port`/`--host` applied, a logger on a chosen stream, and the wait for SIGINT/SIGTERM.
 */
import { pino } from "pino";
import { type Config, loadConfig } from "../config.js";
import { createLogger, type Logger } from "../log.js";

export interface ListenFlags {
  port?: number;
  host?: string;
}

export function listenConfig(flags: ListenFlags, env = process.env): Config {
  const config = loadConfig(env);
  return {
    ...config,
    ...(flags.port !== undefined && { port: flags.port }),
    ...(flags.host !== undefined && { host: flags.host }),
  };
}

/** Logs to stdout (fd 1) or stderr (fd 2); stdio keeps stdout for MCP messages. */
export function processLogger(config: Config, fd: 1 | 2): Logger {
  return createLogger(config.logLevel, pino.destination({ fd, sync: fd === 2 }));
}

/** Resolves with the first SIGINT or SIGTERM. */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
