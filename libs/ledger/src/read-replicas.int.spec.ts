/**
 * Reads served by a real PostgreSQL hot standby (libs/testing standby.ts: pg_basebackup -R, WAL
 * streamed from the native test server): a caller reads its own writes whether a standby or the
 * primary serves it, with the replay paused and resumed at random and with the standby stopped.
 * Runs where a native server takes replication connections (always in CI, where .ci/run allows them).
 */
import { ManualClock } from '@factledger/domain';
import { FactReader } from '@factledger/projections';
import { openDatabase, ReadReplicas } from '@factledger/store';
import { createTestDatabase, type Standby, standbyUnavailable, startStandby, type TestDatabase } from '@factledger/testing';
import { Audit } from './audit';
import { type LedgerHandle, ledgerOn } from './create-ledger';
import { LedgerReads } from './ledger-reads';

const unavailable = standbyUnavailable();
// In CI the standby must be made: a reason not to is a failure there, not a skip.
const suite = unavailable && process.env.CI !== 'true' ? describe.skip : describe;
if (unavailable && process.env.CI !== 'true') process.stderr.write(`read-replicas.int.spec: skipped, ${unavailable}\n`);

/** A small seeded generator, so that a failing run can be run again as it was. */
function seeded(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

suite('reads from a PostgreSQL hot standby', () => {
  let standby: Standby;
  let database: TestDatabase;
  let replicas: ReadReplicas;
  let handle: LedgerHandle;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
  const served = () => replicas.status()[0]!.served;
  /** The same reads, from the primary only: what the standby's answers are compared with. */
  let primary: { reads: LedgerReads; audit: Audit };

  beforeAll(async () => {
    standby = await startStandby();
    database = await createTestDatabase('postgres');
    // The new database (created and migrated on the primary) replayed on the standby before it is opened there.
    await standby.caughtUp();
    replicas = new ReadReplicas([{ name: 'standby', database: await openDatabase({ url: standby.urlOf(database.name), connectTimeoutMs: 1000 }) }], { waitMs: 200, downMs: 300, behindMs: 300 });
    handle = ledgerOn(database, { clock, replicas });
    const deps = { store: handle.store, runner: handle.runner, reader: new FactReader(database.db), clock };
    primary = { reads: new LedgerReads(deps), audit: new Audit(deps) };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await standby?.close();
  }, 60_000);

  it('reads its own writes over 1,000 write-then-read pairs while the replay is paused and resumed at random', async () => {
    const random = seeded(55);
    let paused = false;
    let pauses = 0;
    const violations: string[] = [];
    const before = served();
    for (let i = 0; i < 1000; i++) {
      if (random() < 0.03) {
        if (paused) await standby.resumeReplay();
        else await standby.pauseReplay();
        paused = !paused;
        pauses += paused ? 1 : 0;
      }
      clock.advance(1000);
      const value = `v${i}`;
      const written = await handle.ledger.assert('ryw', { subject: 'billing service', relation: 'port', value });
      // Half name the write's position; half name none (the server's last write for the tenant stands in).
      const read =
        i % 2 === 0
          ? await handle.ledger.fact('ryw', { subject: 'billing service', relation: 'port', minPosition: written.position })
          : await handle.ledger.fact('ryw', { subject: 'billing service', relation: 'port' });
      if (read.value !== value) violations.push(`pair ${i}: wrote ${value}, read ${read.value}`);
    }
    if (paused) await standby.resumeReplay();
    expect(violations).toEqual([]);
    expect(pauses).toBeGreaterThan(3);
    // The standby did serve (not everything fell back to the primary), and not everything either.
    expect(served() - before).toBeGreaterThan(100);
    expect(served() - before).toBeLessThan(1000);
  }, 300_000);

  it('answers as-of reads, histories and the audit on the standby as the primary does', async () => {
    await standby.caughtUp();
    const before = served();
    for (const knownAt of ['2026-12-01T00:00:30Z', '2026-12-01T00:05:00Z', '2026-12-01T00:16:00Z']) {
      const q = { subject: 'billing service', relation: 'port', knownAt };
      expect(await handle.ledger.fact('ryw', q)).toEqual(await primary.reads.fact('ryw', q));
      expect(await handle.audit.believed('ryw', { knownAt })).toEqual(await primary.audit.believed('ryw', { knownAt }));
    }
    const key = { subject: 'billing service', relation: 'port' };
    expect(await handle.ledger.history('ryw', key)).toEqual(await primary.reads.history('ryw', key));
    expect(served() - before).toBe(7);
  }, 60_000);

  it('serves every read while the standby is stopped and started again', async () => {
    const failures: string[] = [];
    let stoppedAt = -1;
    for (let i = 0; i < 200; i++) {
      if (i === 50) {
        stoppedAt = served();
        await standby.stop();
      }
      if (i === 150) await standby.start();
      clock.advance(1000);
      const value = `w${i}`;
      try {
        await handle.ledger.assert('stopped', { subject: 'queue', relation: 'size', value });
        const read = await handle.ledger.fact('stopped', { subject: 'queue', relation: 'size' });
        if (read.value !== value) failures.push(`read ${i}: ${read.value}, wrote ${value}`);
      } catch (error) {
        failures.push(`read ${i}: ${(error as Error).message}`);
      }
      if (i === 149) expect(served()).toBe(stoppedAt);
    }
    expect(failures).toEqual([]);
    // Back in the rotation once it answers again.
    await standby.caughtUp();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const back = served();
    for (let i = 0; i < 20; i++) await handle.ledger.fact('stopped', { subject: 'queue', relation: 'size' });
    expect(served()).toBeGreaterThan(back);
  }, 300_000);
});
