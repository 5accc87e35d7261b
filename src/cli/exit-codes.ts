/**
 * The `svc` exit codes, and the one mapping from an error to its code. Documented in `svc --help`
 * and the README.
 */
import { CommanderError } from "commander";
import {
  AbortedError,
  AuthenticationError,
  BackendError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  SubmitOutcomeUnknownError,
  TimeoutError,
} from "../backend/index.js";
import { UnknownEndpointError } from "../catalog/errors.js";
import { ConfigError } from "../config.js";

export const EXIT = {
  success: 0,
  taskFailed: 1,
  usage: 2,
  auth: 3,
  unreachable: 4,
  backend: 5,
  stillRunning: 6,
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    the task failed (its error_message is printed)
  2    usage or validation error: bad flags or configuration (SVC_BASE_URL or
       SVC_API_KEY unset, a port in use), invalid input, unknown endpoint or task
  3    authentication error: the backend refused the key
  4    backend unreachable: connection refused or reset, or no answer in time
  5    other backend error: insufficient credits, rate limited, server error, or a
       submit whose outcome is unknown (never retried, so no task is created twice)
  6    --wait ran out while the task was still queued or running (read it later
       with: svc task <task-id>)
  130  interrupted (Ctrl-C); a submitted task keeps running`;

/** An error the CLI itself raises, with the exit code it ends with and extra lines to print. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** Listening failures the user fixes with another `--port`/`--host`. */
const LISTEN_CODES = new Set(["EADDRINUSE", "EADDRNOTAVAIL", "EACCES"]);

export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (LISTEN_CODES.has((error as NodeJS.ErrnoException)?.code ?? "")) return EXIT.usage;
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.success : EXIT.usage;
  if (error instanceof ConfigError || error instanceof UnknownEndpointError) return EXIT.usage;
  if (error instanceof AuthenticationError) return EXIT.auth;
  if (error instanceof ConnectionError || error instanceof TimeoutError) return EXIT.unreachable;
  if (error instanceof InvalidRequestError || error instanceof NotFoundError) return EXIT.usage;
  if (error instanceof AbortedError) return EXIT.interrupted;
  if (error instanceof SubmitOutcomeUnknownError && error.cause instanceof AbortedError) {
    return EXIT.interrupted;
  }
  if (error instanceof BackendError) return EXIT.backend;
  return EXIT.backend;
}
