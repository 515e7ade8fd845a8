/** BM25 constants (Okapi): term-frequency saturation and length normalisation, the usual values. */
const K1 = 1.2;
const B = 0.75;

/** English words too common to tell tools apart; leaving them out keeps postings short and queries fast. */
const STOP_WORDS = new Set([
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'with',
]);

/**
 * The words of a text as the index compares them: lower case, split at anything but letters and digits and at
 * camelCase humps (`getWeather`, `get_weather` and `get-weather` all give `get`, `weather`), a plural `s` dropped
 * from longer words, one-letter words and the commonest English words left out.
 */
export function tokenize(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  const tokens: string[] = [];
  for (const word of words) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    tokens.push(word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') ? word.slice(0, -1) : word);
  }
  return tokens;
}

/**
 * An in-memory BM25 index of documents keyed by number: documents are added and removed one at a time (no rebuild),
 * and a query scores only the documents that share a word with it.
 */
export class Bm25Index {
  /** word → (document → occurrences) */
  private readonly postings = new Map<string, Map<number, number>>();
  /** document → its length and its distinct words (to remove it) */
  private readonly documents = new Map<number, { length: number; words: string[] }>();
  private totalLength = 0;
  /** Lengths and a score scratchpad by id (ids are small and dense): no map lookup per match in {@link search}. */
  private lengths: number[] = [];
  private scratch = new Float64Array(64);

  get size(): number {
    return this.documents.size;
  }

  /** Indexes `tokens` under `id` (replacing what `id` held). */
  add(id: number, tokens: readonly string[]): void {
    this.remove(id);
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [word, count] of counts) {
      let posting = this.postings.get(word);
      if (!posting) this.postings.set(word, (posting = new Map()));
      posting.set(id, count);
    }
    this.documents.set(id, { length: tokens.length, words: [...counts.keys()] });
    this.lengths[id] = tokens.length;
    this.totalLength += tokens.length;
  }

  remove(id: number): void {
    const document = this.documents.get(id);
    if (!document) return;
    for (const word of document.words) {
      const posting = this.postings.get(word)!;
      posting.delete(id);
      if (posting.size === 0) this.postings.delete(word);
    }
    this.documents.delete(id);
    this.totalLength -= document.length;
  }

  /**
   * The `limit` best documents sharing a word with the query, best first (ties: the lower id first), after the
   * `skip` best; a selection, not a sort of every match, so a query matching the whole catalog stays cheap.
   */
  search(query: readonly string[], limit = Number.MAX_SAFE_INTEGER, skip = 0): { id: number; score: number }[] {
    const count = this.documents.size;
    if (count === 0) return [];
    const averageLength = this.totalLength / count;
    if (this.scratch.length < this.lengths.length) this.scratch = new Float64Array(this.lengths.length * 2);
    const scores = this.scratch;
    const lengths = this.lengths;
    const touched: number[] = [];
    for (const word of new Set(query)) {
      const posting = this.postings.get(word);
      if (!posting) continue;
      // Lucene's form of idf: log(1 + …) stays positive for a word found in most documents.
      const idf = Math.log(1 + (count - posting.size + 0.5) / (posting.size + 0.5));
      for (const [id, frequency] of posting) {
        if (scores[id] === 0) touched.push(id);
        scores[id] += (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * lengths[id]) / averageLength));
      }
    }
    const ranked = best(touched, scores, skip + limit).slice(skip);
    for (const id of touched) scores[id] = 0;
    return ranked;
  }
}

const before = (a: { id: number; score: number }, b: { id: number; score: number }): boolean =>
  a.score > b.score || (a.score === b.score && a.id < b.id);

/** The `n` best of the `ids` by `scores`, best first: a bounded min-heap, not a sort of every match. */
function best(ids: readonly number[], scores: Float64Array, n: number): { id: number; score: number }[] {
  if (n >= ids.length) return ids.map((id) => ({ id, score: scores[id] })).sort((a, b) => (before(a, b) ? -1 : 1));
  const heap: { id: number; score: number }[] = [];
  const sift = (from: number): void => {
    for (let at = from; ;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && before(heap[worst], heap[left])) worst = left;
      if (right < heap.length && before(heap[worst], heap[right])) worst = right;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst], heap[at]];
      at = worst;
    }
  };
  for (const id of ids) {
    const score = scores[id];
    if (heap.length === n && !before({ id, score }, heap[0])) continue;
    const entry = { id, score };
    if (heap.length < n) {
      heap.push(entry);
      for (let at = heap.length - 1; at > 0;) {
        const parent = (at - 1) >> 1;
        if (!before(heap[parent], heap[at])) break;
        [heap[parent], heap[at]] = [heap[at], heap[parent]];
        at = parent;
      }
    } else if (before(entry, heap[0])) {
      heap[0] = entry;
      sift(0);
    }
  }
  return heap.sort((a, b) => (before(a, b) ? -1 : 1));
}
