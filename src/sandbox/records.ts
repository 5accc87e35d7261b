/**
 * Deterministic synthetic records that follow the result-record shape. Record `i` of a task is a
 * pure function of (endpoint, task seed, i): nothing is stored, any page can be produced on
 * demand, and the same input always yields the same records.
 */
import type { ResultRecord } from "../backend/types.js";
import { kindOf, type RecordParts, type RecordSource } from "./record-kinds.js";
import { mixSeed, Rng } from "./rng.js";

const WORDS = [
  "morning",
  "city",
  "river",
  "launch",
  "update",
  "coffee",
  "summer",
  "design",
  "market",
  "travel",
  "music",
  "review",
  "recipe",
  "garden",
  "team",
  "weekend",
  "project",
  "story",
  "product",
  "photo",
  "guide",
  "event",
  "tips",
  "local",
  "new",
  "best",
  "quick",
  "daily",
  "open",
  "green",
  "bright",
  "simple",
  "classic",
  "fresh",
  "north",
  "studio",
  "trail",
  "harbor",
] as const;
const ADJECTIVES = ["quiet", "bright", "swift", "urban", "golden", "lucky", "little", "wild"];
const NOUNS = ["river", "fox", "studio", "garden", "harbor", "pixel", "maple", "comet"];

/** Publication dates are spread over the two years before this fixed instant. */
const LATEST_PUBLICATION_MS = Date.UTC(2025, 5, 1);
const TWO_YEARS_SECONDS = 2 * 365 * 86_400;

function capitalize(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}

function sentence(rng: Rng, minWords: number, maxWords: number): string {
  const count = rng.int(minWords, maxWords);
  let text = capitalize(rng.pick(WORDS));
  for (let word = 1; word < count; word++) text += ` ${rng.pick(WORDS)}`;
  return `${text}.`;
}

/** The parts every kind of record draws on, from one generator seeded by (task seed, index). */
class Source implements RecordSource {
  readonly rng: Rng;
  readonly id: string;
  readonly origin: string;
  readonly publishedAt: string;
  readonly author: Record<string, unknown>;

  constructor(
    readonly platform: string,
    readonly resource: string,
    seed: number,
    index: number,
  ) {
    const rng = new Rng(mixSeed(seed, index));
    this.rng = rng;
    this.id = `${seed.toString(16).padStart(8, "0")}${String(index).padStart(6, "0")}`;
    this.origin = `https://${platform}.example`;
    const adjective = rng.pick(ADJECTIVES);
    const noun = rng.pick(NOUNS);
    const username = `${adjective}_${noun}${rng.int(1, 999)}`;
    const publishedSeconds = rng.int(0, TWO_YEARS_SECONDS);
    this.publishedAt = new Date(LATEST_PUBLICATION_MS - publishedSeconds * 1000).toISOString();
    this.author = {
      id: `u${rng.hex(10)}`,
      username,
      display_name: `${capitalize(adjective)} ${capitalize(noun)}`,
      url: `${this.origin}/${username}`,
      verified: rng.chance(0.1),
    };
  }

  sentence(minWords = 6, maxWords = 18): string {
    return sentence(this.rng, minWords, maxWords);
  }

  title(): string {
    return sentence(this.rng, 2, 5).slice(0, -1);
  }
}

export function generateRecord(
  platform: string,
  resource: string,
  seed: number,
  index: number,
): ResultRecord {
  const source = new Source(platform, resource, seed, index);
  const parts: RecordParts = kindOf(platform, resource)(source);
  const { type, url, text, metrics, media, author, published_at, ...extra } = parts;
  return {
    platform,
    resource,
    type,
    id: source.id,
    url: url ?? `${source.origin}/${type}/${source.id}`,
    author: author ?? source.author,
    text,
    metrics,
    media,
    published_at: published_at === undefined ? source.publishedAt : published_at,
    ...extra,
  };
}

/** Records `start` (inclusive) to `end` (exclusive) of a task, in their one stable order. */
export function generateRecords(
  platform: string,
  resource: string,
  seed: number,
  start: number,
  end: number,
): ResultRecord[] {
  const records: ResultRecord[] = [];
  for (let index = start; index < end; index++) {
    records.push(generateRecord(platform, resource, seed, index));
  }
  return records;
}
