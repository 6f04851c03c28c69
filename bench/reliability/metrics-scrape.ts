/** Reading the server's `/metrics` as the reliability cells need it, and judging a heap's trend. */

/** The samples of one metric, by the value of `label` ('' for a sample without it). */
export function metricValues(text: string, name: string, label?: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name} `) && !line.startsWith(`${name}{`)) continue;
    const key = label ? (new RegExp(`${label}="([^"]*)"`).exec(line)?.[1] ?? '') : '';
    out[key] = Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return out;
}

/**
 * Whether a heap sampled at even intervals grew: the lowest sample of a stretch is about what
 * survived its last collection, so the last quarter's lowest must stay within 1.25× + 16 MB of the
 * second quarter's (the first quarter warms up: the embedding model, caches filling to their bounds).
 */
export function heapGrowth(samples: number[]): { grew: boolean; warmMB: number; endMB: number } {
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const warm = Math.min(...samples.slice(quarter, 2 * quarter));
  const end = Math.min(...samples.slice(-quarter));
  return { grew: end > warm * 1.25 + 16 * 2 ** 20, warmMB: Math.round(warm / 2 ** 20), endMB: Math.round(end / 2 ** 20) };
}

/** The samples of one metric summed by the value of `label` (over its other labels), e.g. a histogram's `_sum` by route. */
export function metricSums(text: string, name: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  const pattern = new RegExp(`${label}="([^"]*)"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const key = pattern.exec(line)?.[1] ?? '';
    out[key] = (out[key] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return out;
}
