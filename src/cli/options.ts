/** Flags shared by several commands, and their parsers (a bad value is a usage error). */
import { type Command, InvalidArgumentError, Option } from "commander";

export interface CommonFlags {
  json?: boolean;
  baseUrl?: string;
}

export function wholeNumber(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw.trim())) throw new InvalidArgumentError("must be a whole number.");
    const value = Number(raw);
    if (value < min || value > max) {
      throw new InvalidArgumentError(`must be between ${min} and ${max}.`);
    }
    return value;
  };
}

export function seconds(max: number) {
  return (raw: string): number => {
    const value = Number(raw.trim());
    if (raw.trim() === "" || !Number.isFinite(value) || value < 0 || value > max) {
      throw new InvalidArgumentError(`must be a number of seconds from 0 to ${max}.`);
    }
    return value;
  };
}

/** `--json` on a command that prints. */
export function withJson(command: Command): Command {
  return command.option("--json", "print JSON for machines instead of text");
}

/** `--json` and `--base-url` on a command that talks to the backend. */
export function withBackendFlags(command: Command): Command {
  return withJson(command).addOption(
    new Option("--base-url <url>", "REST backend address (default: $SVC_BASE_URL)"),
  );
}

/** `--port` and `--host` on a command that listens. */
export function withListenFlags(command: Command): Command {
  return command
    .addOption(
      new Option("--port <port>", "port to listen on (default: $PORT or 3000)").argParser(
        wholeNumber(0, 65535),
      ),
    )
    .option("--host <host>", "address to listen on (default: $HOST or 127.0.0.1)");
}

export const BACKEND_ENV_HELP = `
Environment:
  SVC_BASE_URL  address of the REST backend (required; e.g. the URL \`svc sandbox\` prints)
  SVC_API_KEY   API key, sent only as "Authorization: Bearer"; never a flag, so it stays out
                of shell history and process lists`;
