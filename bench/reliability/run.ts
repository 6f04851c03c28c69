/**
 * `npm run test:reliability`: the suite that tries to break the product's promises (nothing
 * acknowledged lost, nothing half-written, bad input changes nothing, no tenant sees another's
 * data) and publishes what it measured.
 *
 *   FL_RELIABILITY_SCALE=smoke   a few rounds per cell, for CI (.ci/run); results to a temp file
 *   FL_RELIABILITY_SCALE=full    the published figures (the default): bench/results/reliability.json
 *                                and the table in docs/reliability.md
 *
 * Cells that need native PostgreSQL (the worker cells, the logs on PostgreSQL and KurrentDB, the
 * database faults) run when FL_PG_ADMIN_URL is set. FL_RELIABILITY_CELLS picks cells (crash-server, crash-worker,
 * halfway, fuzz, isolation, soak, backup, faults), FL_RELIABILITY_BACKENDS the logs of the crash and half-way cells (pglite, postgres, kurrentdb),
 * FL_RELIABILITY_KILLS the kills per crash cell (the scale's by default). Exit 1 when any cell found a
 * violation. The last line is a jest-style count for .ci/run: `{"numPassedTests":…}`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CrashLog, crashCell } from './crash';
import { backupCell } from './backup';
import { faultsCell } from './faults';
import { halfwayCell } from './halfway';
import { fuzzCell } from './fuzz';
import { accessMatrixCell, isolationCell } from './isolation';
import { soakCell } from './soak';

const SCALES = {
  smoke: { kills: 3, fuzz: 600, isolationRounds: 1, soakSeconds: 20 },
  full: { kills: 50, fuzz: 10_000, isolationRounds: 9, soakSeconds: 600 },
} as const;

interface Cell {
  cell: string;
  backend: string;
  violations: string[];
  ms: number;
  [figure: string]: unknown;
}

const ROOT = join(__dirname, '..', '..', '..');

/** A figure as the table shows it: a list item by item, an object as its name–value pairs. */
function figureOf(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' && x !== null ? Object.values(x).join(' ') : String(x))).join(', ');
  if (typeof v === 'object' && v !== null)
    return Object.entries(v)
      .map(([a, b]) => (typeof b === 'object' && b !== null ? `${a} (${figureOf(b)})` : `${a} ${b}`))
      .join(', ');
  return String(v);
}

function markdownOf(cells: Cell[], scale: string): string {
  const lines = [
    `| cell | backend | rounds | figures | violations |`,
    `|---|---|---|---|---|`,
    ...cells.map((c) => {
      const { cell, backend, violations, ms, kills, ...figures } = c;
      const shown = Object.entries(figures)
        .map(([k, v]) => `${k}: ${figureOf(v)}`)
        .join('; ');
      return `| ${cell} | ${backend} | ${kills ?? '–'} kills, ${Math.round(ms / 1000)} s | ${shown} | ${violations.length === 0 ? '0' : `**${violations.length}**: ${violations.slice(0, 3).join('; ')}`} |`;
    }),
  ];
  return `${lines.join('\n')}\n\n(scale ${scale}; ${cpus().length} cores, Node ${process.version})\n`;
}

/** The published results' cells, each with the day it ran (the first full run's, 2026-12-06 at 01:12 UTC, where none is given). */
function publishedCells(file: string): Cell[] {
  if (!existsSync(file)) return [];
  const cells = (JSON.parse(readFileSync(file, 'utf8')) as { cells: Cell[] }).cells;
  return cells.map((c) => ({ ...c, ranOn: c.ranOn ?? '2026-12-06 (first full run)' }));
}

/** Which cell a row is, whatever its title says today: the harness's name for it. */
function cellKey(c: Cell): string {
  return c.cell.startsWith('server killed') ? 'crash-server' : c.cell.startsWith('worker killed') ? 'crash-worker' : /half-way/.test(c.cell) ? 'halfway' : c.cell;
}

async function main(): Promise<void> {
  const scale = (process.env.FL_RELIABILITY_SCALE ?? 'full') as keyof typeof SCALES;
  if (!(scale in SCALES)) throw new Error(`FL_RELIABILITY_SCALE must be one of ${Object.keys(SCALES).join(', ')}`);
  const { fuzz, isolationRounds, soakSeconds } = SCALES[scale];
  const kills = process.env.FL_RELIABILITY_KILLS ? Number(process.env.FL_RELIABILITY_KILLS) : SCALES[scale].kills;
  if (!Number.isInteger(kills) || kills < 1) throw new Error('FL_RELIABILITY_KILLS must be a whole number of kills per crash cell, at least 1');
  const only = process.env.FL_RELIABILITY_CELLS?.split(',');
  const wanted = (cell: string): boolean => !only || only.includes(cell);
  const native = Boolean(process.env.FL_PG_ADMIN_URL);
  const backends = (process.env.FL_RELIABILITY_BACKENDS?.split(',') as CrashLog[] | undefined) ?? (native ? ['pglite', 'postgres', 'kurrentdb'] : ['pglite']);
  const cells: Cell[] = [];
  for (const target of ['server', 'worker'] as const) {
    if (!wanted(`crash-${target}`)) continue;
    // A worker needs a database it can share with the server: not the embedded one.
    for (const backend of backends.filter((b) => target === 'server' || b !== 'pglite')) {
      process.stderr.write(`== crash: ${target} killed under load (${backend}, ${kills} kills)\n`);
      cells.push({ ...(await crashCell(target, backend, kills)) });
    }
  }
  if (wanted('halfway')) {
    for (const backend of backends) {
      process.stderr.write(`== rebuild, erasure, triage apply and rollback killed half-way (${backend}, ${kills} kills each)\n`);
      cells.push({ ...(await halfwayCell(backend, kills)) });
    }
  }
  if (wanted('fuzz')) {
    process.stderr.write(`== fuzz: ${fuzz} requests from /openapi.json\n`);
    cells.push({ ...(await fuzzCell(fuzz)) });
  }
  if (wanted('isolation')) {
    process.stderr.write(`== tenant isolation: every /v1 route, ${isolationRounds} rounds\n`);
    cells.push({ ...(await isolationCell(isolationRounds)) });
    for (const backend of backends) {
      process.stderr.write(`== the authorization matrix: every route, spelling and key (${backend})\n`);
      cells.push({ ...(await accessMatrixCell(backend)) });
    }
  }
  if (wanted('soak')) {
    process.stderr.write(`== soak: ${soakSeconds} s at a fixed mixed rate\n`);
    cells.push({ ...(await soakCell(soakSeconds, scale === 'full' ? join(ROOT, 'bench', 'results', 'soak.png') : null)) });
  }
  if (wanted('backup')) {
    for (const backend of native ? (['pglite', 'postgres'] as const) : (['pglite'] as const)) {
      process.stderr.write(`== backup and restore (${backend})\n`);
      cells.push({ ...(await backupCell(backend)) });
    }
  }
  // Last: it restarts and stops the machine's PostgreSQL (and starts it again).
  if (native && wanted('faults')) {
    process.stderr.write('== database faults under load (native PostgreSQL)\n');
    cells.push({ ...(await faultsCell()) });
  }
  const failed = cells.filter((c) => c.violations.length > 0);
  const ranOn = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  for (const c of cells) c.ranOn = ranOn;
  const out = scale === 'full' ? join(ROOT, 'bench', 'results') : mkdtempSync(join(tmpdir(), 'fl-reliability-'));
  // A full run of some cells (FL_RELIABILITY_CELLS) replaces their rows in the published results
  // and keeps the others, each row with the day it ran.
  const published = scale === 'full' && only ? publishedCells(join(out, 'reliability.json')) : [];
  const sameRow = (a: Cell, b: Cell): boolean => a.backend === b.backend && cellKey(a) === cellKey(b);
  const shown = [...published.map((old) => cells.find((c) => sameRow(c, old)) ?? old), ...cells.filter((c) => !published.some((old) => sameRow(c, old)))];
  const markdown = markdownOf(shown, scale);
  const result = { scale, machine: { cpus: cpus().length, node: process.version }, cells: shown, markdown };
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'reliability.json'), `${JSON.stringify(result, null, 1)}\n`);
  if (scale === 'full') {
    // The table between its markers in docs/reliability.md.
    const doc = join(ROOT, 'docs', 'reliability.md');
    const text = readFileSync(doc, 'utf8');
    writeFileSync(doc, text.replace(/(<!-- reliability:begin -->\n)[\s\S]*?(<!-- reliability:end -->)/, `$1${markdown}$2`));
  }
  process.stdout.write(`${markdown}\nresults: ${join(out, 'reliability.json')}\n`);
  for (const c of failed) process.stdout.write(`FAILED ${c.cell} (${c.backend}):\n${c.violations.map((v) => `  - ${v}`).join('\n')}\n`);
  process.stdout.write(`${JSON.stringify({ numPassedTests: cells.length - failed.length, numFailedTests: failed.length, numTotalTests: cells.length, numRuntimeErrorTestSuites: 0 })}\n`);
  if (failed.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.stdout.write(`${JSON.stringify({ numPassedTests: 0, numFailedTests: 1, numTotalTests: 1, numRuntimeErrorTestSuites: 1 })}\n`);
  process.exitCode = 1;
});
