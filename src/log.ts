import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger };

/** Field paths pino replaces with "[redacted]" wherever they appear in a log object. */
const REDACTED_PATHS = [
  "apiKey",
  "key",
  "authorization",
  "headers.authorization",
  "req.headers.authorization",
  "*.apiKey",
  "*.authorization",
];

/**
 * The one logger of a process, created at the edge and passed down. `destination` lets the
 * stdio bridge log to stderr (stdout carries MCP) and lets tests capture every line.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "svc-mcp" },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
