/**
 * Pure record shaping: projecting records to dotted `fields`, and deciding how many leading
 * records fit the inline byte budget. Paging (which calls the backend) lives in paging.ts.
 */

type Json = Record<string, unknown>;

/** A dotted path such as `author.name` or `media.0.url`. */
export const FIELD_PATH_PATTERN = "^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*$";

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function step(value: unknown, segment: string): unknown {
  if (Array.isArray(value)) return /^\d+$/.test(segment) ? value[Number(segment)] : undefined;
  return isObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
}

/**
 * Keeps only the named dotted paths of a record, nested as in the original (`author.name` gives
 * `{author: {name}}`). A path that does not exist is left out rather than set to null.
 */
export function projectRecord(record: unknown, fields: readonly string[]): Json {
  const projected: Json = {};
  for (const field of fields) {
    const segments = field.split(".");
    let value: unknown = record;
    for (const segment of segments) value = step(value, segment);
    if (value === undefined) continue;
    let target = projected;
    segments.forEach((segment, index) => {
      if (index === segments.length - 1) {
        target[segment] = value;
        return;
      }
      const next = target[segment];
      // Copy, never write into: `next` may be an object taken whole from the record by `author`.
      target[segment] = isObject(next) ? { ...next } : {};
      target = target[segment] as Json;
    });
  }
  return projected;
}

/**
 * How many leading records fit in `maxBytes` of JSON (as the array they are sent in). At least one
 * when there is any record: a single record cannot be split, and returning none would leave a
 * cursor that never moves. `json` is the array already serialized, when the caller has it: when it
 * fits, no record is serialized on its own.
 */
export function fittingCount(
  records: readonly unknown[],
  maxBytes: number,
  json: string = JSON.stringify(records),
): number {
  if (Buffer.byteLength(json) <= maxBytes) return records.length;
  let bytes = 2; // the brackets of the array
  for (let index = 0; index < records.length; index++) {
    bytes += Buffer.byteLength(JSON.stringify(records[index])) + (index > 0 ? 1 : 0);
    if (bytes > maxBytes) return Math.max(index, 1);
  }
  return records.length;
}
