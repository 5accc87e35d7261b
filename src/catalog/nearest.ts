/** Suggestions for a name that matched nothing: "did you mean ...". */

/** Levenshtein distance, two rows of memory. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Compare names regardless of case, of `-`, `_`, `/` and of the `svc_` prefix, so endpoint ids,
 * tool names and short names can be matched against each other.
 */
function normalize(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_/\s]+/g, " ")
    .replace(/^svc /, "");
}

/**
 * The `count` candidates nearest to `query`: those containing it (or contained in it) first,
 * then by edit distance, then alphabetically.
 */
export function nearestNames(query: string, candidates: readonly string[], count = 3): string[] {
  const wanted = normalize(query);
  const ranked = candidates.map((name) => {
    const normal = normalize(name);
    const contains = wanted !== "" && (normal.includes(wanted) || wanted.includes(normal));
    return { name, contains, distance: editDistance(wanted, normal) };
  });
  ranked.sort(
    (a, b) =>
      Number(b.contains) - Number(a.contains) ||
      a.distance - b.distance ||
      a.name.localeCompare(b.name),
  );
  return [...new Set(ranked.map((entry) => entry.name))].slice(0, count);
}
