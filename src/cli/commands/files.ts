/**
 * `svc files <task-id>`: list a task's raw JSONL files; `--download <dir>` saves them after
 * checking that each is valid gzip whose every line is a JSON object.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { Command } from "commander";
import type { TaskFile } from "../../backend/index.js";
import { withBackend } from "../backend.js";
import { CliError, EXIT } from "../exit-codes.js";
import { BACKEND_ENV_HELP, type CommonFlags, withBackendFlags } from "../options.js";
import { createOutput, table } from "../output.js";

interface FilesFlags extends CommonFlags {
  download?: string;
}

interface SavedFile extends TaskFile {
  path: string;
  bytes: number;
  records: number;
}

/** Counts the records of a gzip JSONL file, line by line; throws if it is not one. */
async function countJsonlRecords(gzipped: Buffer): Promise<number> {
  const lines = createInterface({
    input: Readable.from([gzipped]).pipe(createGunzip()),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let records = 0;
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const value: unknown = JSON.parse(line);
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new Error(`line ${records + 1} is not a JSON object`);
    }
    records += 1;
  }
  return records;
}

/** A safe local name: the URL's last path segment, else `<task>-<n>.jsonl.gz`; never a path. */
function localName(file: TaskFile, taskId: string, index: number, taken: Set<string>): string {
  const fromUrl = basename(URL.canParse(file.public_url) ? new URL(file.public_url).pathname : "");
  const cleaned = fromUrl.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "");
  const safeTask = taskId.replace(/[^A-Za-z0-9._-]/g, "_");
  let name = cleaned === "" ? `${safeTask}-${index + 1}.jsonl.gz` : cleaned;
  if (taken.has(name)) name = `${index + 1}-${name}`;
  taken.add(name);
  return name;
}

export function registerFiles(program: Command): void {
  withBackendFlags(
    program
      .command("files")
      .description("list a task's raw JSONL files; --download saves and checks them")
      .argument("<task-id>", "id printed by `svc run`")
      .option("--download <dir>", "save every file into this folder (created if missing)"),
  )
    .addHelpText("after", BACKEND_ENV_HELP)
    .action(async (taskId: string, flags: FilesFlags) => {
      const out = createOutput(flags.json === true);
      await withBackend(flags, async ({ client, key }) => {
        const { files } = await client.getFiles(key, taskId);
        if (flags.download === undefined) {
          out.result(files, () =>
            files.length === 0
              ? "No files."
              : table([["TYPE", "URL"], ...files.map((f) => [f.file_type, f.public_url])]),
          );
          return;
        }
        const dir = resolve(flags.download);
        await mkdir(dir, { recursive: true });
        const taken = new Set<string>();
        const saved: SavedFile[] = [];
        for (const [index, file] of files.entries()) {
          const bytes = await client.download(file.public_url);
          const records = await countJsonlRecords(bytes).catch((error: Error) => {
            throw new CliError(
              `${file.public_url} is not gzip JSON Lines: ${error.message}`,
              EXIT.backend,
            );
          });
          const path = join(dir, localName(file, taskId, index, taken));
          await writeFile(path, bytes);
          saved.push({ ...file, path, bytes: bytes.length, records });
        }
        out.result(saved, () =>
          saved.length === 0
            ? "No files."
            : table([
                ["FILE", "BYTES", "RECORDS"],
                ...saved.map((f) => [f.path, String(f.bytes), String(f.records)]),
              ]),
        );
      });
    });
}
