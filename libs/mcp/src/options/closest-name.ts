/** Levenshtein distance (insertions, deletions, substitutions), case-insensitive: `sesions` → `sessions` is 1. */
export function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = previous[j - 1] + (left[i - 1] === right[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[right.length];
}

/** The candidate nearest to `name` when a plausible typo (edits ≤ a third of the longer name, at least 2), else undefined. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const allowed = Math.max(2, Math.floor(Math.max(name.length, best.candidate.length) / 3));
  return best.distance <= allowed ? best.candidate : undefined;
}
