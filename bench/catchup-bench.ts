/**
 * Projection catch-up through the event-store port (`npm run bench:catchup`): the same facts
 * written once with the log in PostgreSQL and once with it in KurrentDB (the local server that
 * speaks its gRPC protocol, or KURRENTDB_URL), then the fact projection built again from position
 * 0 by a runner that reads the log page by page, in events/s. The read models are on native
 * PostgreSQL (FL_PG_ADMIN_URL) in both runs, and both take the same road: the generic rebuild,
 * one transaction applying each page (the PostgreSQL fast path of bulk COPY is not used).
 *
 * For information only: the protocol double is a Node process of our own, not KurrentDB, so its
 * speed says nothing of a real server's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ledgerOn, type LedgerOp } from '@factledger/ledger';
import { PostgresFactProjection, ProjectionRunner } from '@factledger/projections';
import type { EventStore } from '@factledger/store';
import { createTestDatabase, openKurrentDbOrLocal } from '@factledger/testing';
import { fmtInt, loadSampler, round } from './stats';

process.env.FL_PG_ADMIN_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const FACTS = Number(process.env.FL_CATCHUP_BENCH_FACTS ?? 20_000);
const TENANTS = 20;
const BATCH = 200;
const ROUNDS = 3;

/** The same ops for both logs: each tenant's keys asserted, then a third of them superseded. */
function* batches(): Generator<{ tenant: string; ops: LedgerOp[] }> {
  const perTenant = Math.ceil(FACTS / TENANTS);
  for (let t = 0; t < TENANTS; t++) {
    for (let from = 0; from < perTenant; from += BATCH) {
      const ops: LedgerOp[] = [];
      for (let i = from; i < Math.min(from + BATCH, perTenant); i++) {
        const superseding = i >= Math.floor((perTenant * 2) / 3);
        const key = superseding ? i - Math.floor((perTenant * 2) / 3) : i;
        ops.push({ assert: { subject: `service-${key}`, relation: 'port', value: String(superseding ? 9000 + key : 8000 + key), validFrom: superseding ? '2026-06-01' : '2026-01-01' } });
      }
      yield { tenant: `bench-${t}`, ops };
    }
  }
}

async function measure(label: string, store: EventStore | undefined): Promise<{ label: string; events: number; writeMs: number; catchUpMs: number[]; eventsPerSec: number }> {
  const database = await createTestDatabase('postgres');
  try {
    const handle = ledgerOn(database, { store });
    const w0 = Date.now();
    for (const b of batches()) await handle.ledger.writeMany(b.tenant, b.ops, {});
    const writeMs = Date.now() - w0;
    await handle.runner.catchUp();
    const runner = new ProjectionRunner(database.db, [new PostgresFactProjection()], { log: handle.store, batchSize: 500 });
    const times: number[] = [];
    let events = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const out = await runner.rebuild('facts');
      events = out.events;
      times.push(out.ms);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    const eventsPerSec = Math.round((events / median) * 1000);
    console.log(`[${label}] ${fmtInt(events)} events written in ${fmtInt(writeMs)} ms; caught up from 0 in ${times.map((t) => fmtInt(t)).join(' / ')} ms: ${fmtInt(eventsPerSec)} events/s (median)`);
    return { label, events, writeMs, catchUpMs: times, eventsPerSec };
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const load = loadSampler();
  const postgres = await measure('log in PostgreSQL', undefined);
  const kurrent = await openKurrentDbOrLocal(process.env.KURRENTDB_URL, `factledger-bench-${Date.now()}-`);
  let kurrentdb;
  try {
    kurrentdb = await measure(process.env.KURRENTDB_URL ? 'log in KurrentDB' : 'log in the KurrentDB protocol double', kurrent.store);
  } finally {
    await kurrent.close();
  }
  const loadAverage = load.stop();
  const result = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, date: new Date().toISOString(), loadAverage },
    facts: FACTS,
    kurrentdb: process.env.KURRENTDB_URL ? 'server at KURRENTDB_URL' : 'local protocol double (libs/testing/src/kurrentdb/protocol-server.ts)',
    results: [postgres, kurrentdb],
    ratio: round(kurrentdb.eventsPerSec / postgres.eventsPerSec, 3),
  };
  console.log(`KurrentDB ÷ PostgreSQL catch-up: ${result.ratio}×`);
  mkdirSync(join(__dirname, '..', '..', 'bench', 'results'), { recursive: true });
  writeFileSync(join(__dirname, '..', '..', 'bench', 'results', 'catchup.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
