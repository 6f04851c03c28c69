/**
 * `npm run bench:mcp`: the `recall` tool through MCP over stdio (the real `factledger mcp`
 * process, the SDK's client) beside the same recall in-process (the QueryBus the tool
 * dispatches to), on the same embedded store, one after the other in one run. The difference is
 * what the protocol costs: JSON-RPC framing, the pipe, and the tool's result built twice (text and
 * structured). Goal: ≤ 2 ms more at p50. Results in bench/results/mcp.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@factledger/domain';
import { createLedger, loadConfig } from '@factledger/ledger';
import { AssembleContextQuery, FactLedgerModule } from '@factledger/nest';
import { recallOn } from '@factledger/recall';
import { createTestDatabase } from '@factledger/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { NestFactory } from '@nestjs/core';
import { QueryBus } from '@nestjs/cqrs';
import { fmtMs, type LatencySummary, msSince, summarize, tick } from './stats';

const FACTS = 300;
const WARMUP = 30;
const RUNS = 300;
const QUESTIONS = ['Which port does service 7 listen on?', 'Where does the team of service 42 sit?', 'What runs on host 13?', 'Which port does service 101 use now?'];
const log = (m: string) => process.stderr.write(`${m}\n`);

interface Backend {
  name: string;
  /** What the child process is given to reach the same store. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Native PostgreSQL when FL_PG_ADMIN_URL is set: both paths open at once on one database, their
 * calls interleaved, so the machine's drift hits both alike. Otherwise embedded PGlite, which one
 * process holds at a time: in-process first, then the child on the same folder.
 */
async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fl-bench-mcp-'));
  const native = process.env.FL_PG_ADMIN_URL ? await createTestDatabase('postgres') : null;
  const settings = loadConfig({}, native ? { databaseUrl: native.url!, logLevel: 'silent' } : { dataDir: join(dir, 'data'), logLevel: 'silent' });
  const backend: Backend = {
    name: native ? 'native PostgreSQL' : 'PGlite',
    env: native ? { DATABASE_URL: native.url! } : { FACTLEDGER_DATA_DIR: join(dir, 'data') },
    close: async () => {
      await native?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    log(`filling ${FACTS} facts (${backend.name})`);
    const handle = await createLedger(settings);
    const recall = recallOn(handle.database, handle.runner, systemClock, settings);
    for (let i = 0; i < FACTS; i++) {
      await handle.ledger.assert('bench', { subject: `service ${i}`, relation: 'listens on port', value: String(8000 + i) });
      if (i % 3 === 0) await handle.ledger.assert('bench', { text: `The team of service ${i} sits on floor ${i % 9}; host ${i} runs the batch jobs.` });
    }
    await recall.indexer.catchUp();
    const app = await NestFactory.createApplicationContext(FactLedgerModule.forRoot({ handle, recall }), { logger: false });
    const queries = app.get(QueryBus);
    const inProcessCall = async (i: number): Promise<number> => {
      const started = tick();
      await queries.execute(new AssembleContextQuery('bench', { query: QUESTIONS[i % QUESTIONS.length] }));
      return msSince(started);
    };
    const closeInProcess = async () => {
      await recall.stop();
      await app.close();
      await handle.close();
    };
    const inProcess: number[] = [];
    const overMcp: number[] = [];
    if (!native) {
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const ms = await inProcessCall(i);
        if (i >= WARMUP) inProcess.push(ms);
      }
      await closeInProcess();
    }
    log('through `factledger mcp` over stdio');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && k !== 'DATABASE_URL' && k !== 'FACTLEDGER_DATA_DIR')) as Record<string, string>;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(__dirname, '..', 'apps', 'cli', 'src', 'main.js'), 'mcp', '--tenant', 'bench'],
      env: { ...env, ...backend.env, FACTLEDGER_MIGRATE_ON_START: 'false' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'factledger-bench', version: '1.0.0' });
    await client.connect(transport);
    for (let i = 0; i < WARMUP + RUNS; i++) {
      if (native) {
        const ms = await inProcessCall(i);
        if (i >= WARMUP) inProcess.push(ms);
      }
      const started = tick();
      const r = await client.callTool({ name: 'recall', arguments: { query: QUESTIONS[i % QUESTIONS.length] } });
      if (r.isError) throw new Error(`recall failed over MCP: ${JSON.stringify(r.content)}`);
      if (i >= WARMUP) overMcp.push(msSince(started));
    }
    await client.close();
    if (native) await closeInProcess();

    const a: LatencySummary = summarize(inProcess);
    const b: LatencySummary = summarize(overMcp);
    const overhead = { p50: b.p50 - a.p50, p95: b.p95 - a.p95 };
    const markdown = [
      `| recall (${FACTS} facts, ${backend.name}, n=${RUNS}${native ? ', calls interleaved' : ''}) | p50 | p95 |`,
      '|---|---|---|',
      `| in-process (QueryBus) | ${fmtMs(a.p50)} ms | ${fmtMs(a.p95)} ms |`,
      `| MCP over stdio (factledger mcp, SDK client) | ${fmtMs(b.p50)} ms | ${fmtMs(b.p95)} ms |`,
      `| overhead | **${fmtMs(overhead.p50)} ms** ${overhead.p50 <= 2 ? '✅' : '❌'} (goal ≤ 2 ms) | ${fmtMs(overhead.p95)} ms |`,
    ].join('\n');
    console.log(markdown);
    const out = join(__dirname, '..', '..', 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(
      join(out, 'mcp.json'),
      JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, backend: backend.name, facts: FACTS, runs: RUNS, inProcess: a, overMcp: b, overhead, markdown }, null, 2),
    );
  } finally {
    await backend.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
