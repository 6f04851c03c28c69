/** Timing and summary helpers of the benchmark: monotonic clock, percentiles, a seeded PRNG, the machine's load. */
import { loadavg } from 'node:os';

export const tick = (): bigint => process.hrtime.bigint();

/** Milliseconds elapsed since `t0` (a `tick()`), as a float. */
export const msSince = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles (ms). */
export function summarize(samples: number[]): LatencySummary {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { n: s.length, mean: round(mean), p50: round(at(50)), p95: round(at(95)), p99: round(at(99)), max: round(s[s.length - 1]!) };
}

export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** mulberry32: small, fast, seeded, so every run draws the same workload. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export const fmtInt = (x: number): string => Math.round(x).toLocaleString('en-US');
export const fmtMs = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

export interface LoadAverage {
  min: number;
  mean: number;
  max: number;
}

/** Samples the 1-minute load average every 2 s, so that figures taken on a busy machine say so. */
export function loadSampler(): { stop(): LoadAverage } {
  const samples = [loadavg()[0]!];
  const timer = setInterval(() => samples.push(loadavg()[0]!), 2000);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      samples.push(loadavg()[0]!);
      return { min: round(Math.min(...samples), 2), mean: round(samples.reduce((a, x) => a + x, 0) / samples.length, 2), max: round(Math.max(...samples), 2) };
    },
  };
}
