#!/usr/bin/env node
/**
 * Two builds of factledger side by side in one process: prose asserts (restatement on, the
 * shapes `npm run bench` uses) alternated call by call between a ledger of each build, each on a
 * fresh native database filled alike, so that the host's noise falls on both the same. What a
 * change costs on the write path, measured as the brief asks (ratios in one run), where separate
 * `npm run bench` runs on a shared host spread by more than the change.
 *
 *   git worktree add ../before <commit> && (cd ../before && npm ci && npm run build)
 *   npm run build && node scripts/ab-prose-asserts.js ../before/dist dist
 *   N=8000 node scripts/ab-prose-asserts.js …     measured asserts a side (default 6000, after 2000 warm-up)
 *
 * Prints, for each build, the time to fill 10,000 statements (500 a writeMany) and the latency
 * percentiles of one assert. Needs FL_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
const { resolve, join } = require('node:path');

process.env.FL_PG_ADMIN_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const dists = process.argv.slice(2, 4).map((d) => resolve(d));
if (dists.length !== 2) {
  console.error('usage: node scripts/ab-prose-asserts.js <dist of build A> <dist of build B>');
  process.exit(2);
}
const N = Number(process.env.N ?? 6000);
const WARMUP = 2000;
const STORED = 10_000;
const SHAPES = [
  (t, v) => `The service svc-${t} runs on host-${v}.internal.`,
  (t, v) => `The owner of repository repo-${t} is person ${v}.`,
  (t, v) => `The team ${t} sits on floor ${v}.`,
  (t, v) => `Person ${t} speaks language ${v}.`,
  (t, v) => `The quota of bucket b${t} is ${v} GB.`,
];

/** A small seeded generator (mulberry32), one per side, so both draw the same statements. */
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    let t = (s = (s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};
/** A build's own copy of a module: its `dist`, or the node_modules beside it. */
const from = (dist, path) => require(join(dist, path));
const fromModules = (dist, name) => require(require.resolve(name, { paths: [join(dist, '..')] }));

async function side(dist) {
  const domain = from(dist, 'libs/domain/src/index.js');
  const { ledgerOn } = from(dist, 'libs/ledger/src/index.js');
  let testing;
  try {
    testing = from(dist, 'libs/testing/src/index.js');
  } catch {
    testing = from(dist, 'libs/store/src/index.js'); // builds from before libs/testing
  }
  const { sql } = fromModules(dist, 'kysely');
  const database = await testing.createTestDatabase('postgres');
  const clock = new domain.ManualClock(new Date('2026-12-01T00:00:00Z'));
  const handle = ledgerOn(database, { clock });
  const random = seeded(7);
  const statement = () => SHAPES[Math.floor(random() * SHAPES.length)](Math.floor(random() * 2000), Math.floor(random() * 1000));
  const started = Date.now();
  for (let done = 0; done < STORED; done += 500) {
    clock.advance(1000);
    await handle.ledger.writeMany(
      'ab',
      Array.from({ length: 500 }, () => ({ assert: { text: statement(), speaker: 'document' } })),
    );
  }
  const fillMs = Date.now() - started;
  await sql`VACUUM (ANALYZE)`.execute(database.db);
  await sql`CHECKPOINT`.execute(database.db);
  return { dist, database, handle, clock, statement, fillMs, ms: [] };
}

(async () => {
  const sides = [];
  for (const dist of dists) sides.push(await side(dist));
  for (let i = 0; i < WARMUP + N; i++) {
    for (const s of i % 2 ? sides : [...sides].reverse()) {
      s.clock.advance(1000);
      const text = s.statement();
      const t0 = process.hrtime.bigint();
      await s.handle.ledger.assert('ab', { text, speaker: 'document' });
      if (i >= WARMUP) s.ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  for (const s of sides) {
    const mean = s.ms.reduce((a, b) => a + b, 0) / s.ms.length;
    const figures = [0.5, 0.9, 0.99, 0.999].map((p) => `p${String(p * 100).replace('.', '')} ${percentile(s.ms, p).toFixed(2)}`).join('  ');
    console.log(`${s.dist}: fill ${s.fillMs} ms; one assert ${figures}  mean ${mean.toFixed(2)} ms`);
    await s.database.close();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
