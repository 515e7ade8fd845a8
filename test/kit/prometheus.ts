/** Scraping a Prometheus endpoint over a real socket and reading its samples (the text exposition format). */

/** One sample line: `name{label="value",...} value`. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A scrape: the HTTP answer and its samples. */
export interface PrometheusScrape {
  status: number;
  contentType: string;
  text: string;
  samples: PrometheusSample[];
}

/** GETs `url` (a `/metrics` endpoint) and parses the body. */
export async function scrape(url: string, headers: Record<string, string> = {}): Promise<PrometheusScrape> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, samples: parseSamples(text) };
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of an exposition text (comments skipped; label values unescaped). */
export function parseSamples(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line);
    if (!match || line.startsWith('#')) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL))
      labels[key] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The samples named `name` whose labels include `labels` (other labels may be present). */
export function samplesOf(samples: PrometheusSample[], name: string, labels: Record<string, string> = {}): PrometheusSample[] {
  return samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}

/** The value of the one sample `name{labels}` (undefined when absent; throws when several match). */
export function valueOf(samples: PrometheusSample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samplesOf(samples, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
