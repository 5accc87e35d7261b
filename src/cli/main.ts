#!/usr/bin/env node
/**
 * Entry point of the `svc` and `svc-mcp` binaries. Every outcome ends in a documented exit code
 * (see exit-codes.ts); errors are printed once, on stderr.
 */
import { CommanderError } from "commander";
import { exitCodeFor } from "./exit-codes.js";
import { createOutput } from "./output.js";
import { createProgram } from "./program.js";

async function main(args: string[]): Promise<number> {
  const program = createProgram();
  if (args.length === 0) {
    if (process.stdin.isTTY) {
      program.outputHelp();
      return 0;
    }
    args.push("stdio");
  }
  try {
    await program.parseAsync(args, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    // Commander has already printed its own usage errors and help.
    if (!(error instanceof CommanderError)) createOutput(args.includes("--json")).error(error);
    return exitCodeFor(error);
  }
}

process.exitCode = await main(process.argv.slice(2));
