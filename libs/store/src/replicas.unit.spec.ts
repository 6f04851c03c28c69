/**
 * The rotation of read replicas, with the standbys' checks given as functions: turns, a standby
 * out after a failure or a wait past the bound and back after its time, and which errors mean
 * "this standby cannot serve" (the read goes to the primary) rather than the read's own.
 */
import type { Database } from './database';
import { ReadReplicas, replicaFault, replicaName } from './replicas';

const standby = (name: string) => ({ name, database: { close: async () => undefined } as unknown as Database });

describe('ReadReplicas', () => {
  it('takes turns among the standbys that have reached what the read must show', async () => {
    const [a, b] = [standby('a'), standby('b')];
    const replicas = new ReadReplicas([a, b]);
    const picked = [];
    for (let i = 0; i < 4; i++) picked.push((await replicas.pick(async () => true))?.name);
    expect(picked).toEqual(['a', 'b', 'a', 'b']);
    expect(replicas.status().map((s) => s.served)).toEqual([2, 2]);
  });

  it('skips a standby whose check fails, for downMs, and takes it back after', async () => {
    const [a, b] = [standby('a'), standby('b')];
    const replicas = new ReadReplicas([a, b], { downMs: 50 });
    let aFails = true;
    const reached = async (db: Database) => {
      if (db === a.database && aFails) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return true;
    };
    expect((await replicas.pick(reached))?.name).toBe('b');
    expect(replicas.status()[0]).toMatchObject({ name: 'a', state: 'down', lastProblem: 'connect ECONNREFUSED' });
    aFails = false;
    for (let i = 0; i < 3; i++) expect((await replicas.pick(reached))?.name).toBe('b');
    await new Promise((resolve) => setTimeout(resolve, 60));
    const names = new Set([(await replicas.pick(reached))?.name, (await replicas.pick(reached))?.name]);
    expect(names).toEqual(new Set(['a', 'b']));
  });

  it('sends the read to the primary once no standby reaches it within waitMs, and does not wait for them again for behindMs', async () => {
    const replicas = new ReadReplicas([standby('a')], { waitMs: 30, behindMs: 80 });
    let checks = 0;
    const never = async () => {
      checks++;
      return false;
    };
    const started = Date.now();
    expect(await replicas.pick(never)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(30);
    expect(checks).toBeGreaterThan(1);
    expect(replicas.status()[0]!.state).toBe('behind');
    const before = checks;
    expect(await replicas.pick(never)).toBeNull();
    expect(checks).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 90));
    expect((await replicas.pick(async () => true))?.name).toBe('a');
  });

  it('takes a standby out when a read on it failed', async () => {
    const a = standby('a');
    const replicas = new ReadReplicas([a]);
    replicas.failed(a, new Error('terminating connection due to administrator command'));
    expect(await replicas.pick(async () => true)).toBeNull();
    expect(replicas.status()[0]).toMatchObject({ state: 'down', lastProblem: 'terminating connection due to administrator command' });
  });

  it("tells a standby's failure from the read's own error", () => {
    expect(replicaFault(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(replicaFault(Object.assign(new Error('shutting down'), { code: '57P01' }))).toBe(true);
    expect(replicaFault(Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' }))).toBe(true);
    expect(replicaFault(Object.assign(new Error('Connection terminated unexpectedly'), {}))).toBe(true);
    expect(replicaFault(Object.assign(new Error('unknown memory m1'), { code: 'unknown_memory' }))).toBe(false);
    expect(replicaFault(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
  });

  it('names a standby without its password', () => {
    expect(replicaName('postgres://reader:s3cret@db2:5432/fl')).toBe('postgres://reader:***@db2:5432/fl');
    expect(replicaName('not a url')).toBe('replica');
  });
});
