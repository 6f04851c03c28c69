/**
 * The event-store contract: what every adapter behind the port must do, as one Jest suite that
 * each adapter's spec runs with its own factory (in memory, PGlite, native PostgreSQL; a KurrentDB
 * adapter joins the same way). Each test works in a tenant of its own, so one store serves them all.
 */
import { randomUUID } from 'node:crypto';
import { type AppendContext, ERASURE_RECORDED, type EventStore, ExpectedVersionConflict, LOG_START, type RecordedEvent, StoreCapabilityError } from '@factledger/store';
import { testAppendContext } from './test-database';

export interface ContractSubject {
  store: EventStore;
  close(): Promise<void>;
}

const ev = (type = 'Tested', data: unknown = {}) => ({ eventId: randomUUID(), type, data });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function eventStoreContract(name: string, open: () => Promise<ContractSubject>): void {
  describe(`the event-store contract on ${name}`, () => {
    let subject: ContractSubject;
    let store: EventStore;
    let tenant: string;
    const ctx = (over: Partial<AppendContext> = {}): AppendContext => testAppendContext({ tenant, ...over });
    /** Every event of this test's tenant, in log order. */
    const mine = async (): Promise<RecordedEvent[]> => (await store.readAll(LOG_START, 1_000_000)).filter((e) => e.tenant === tenant);

    beforeAll(async () => {
      subject = await open();
      store = subject.store;
    });
    afterAll(() => subject.close());
    beforeEach(() => {
      tenant = `t-${randomUUID().slice(0, 8)}`;
    });

    it('appends events in order and reads the stream back with versions and every piece of metadata', async () => {
      const result = await store.append(ctx({ batch: 'b1', correlationId: 'c1', causationId: 'k1', commandId: 'cmd-1', actor: 'key-1' }), [
        { streamId: 's', expectedVersion: 'no-stream', events: [ev('A', { n: 1 }), ev('B', { n: 2, text: 'ünïcode 대전' }), ev('C', { n: 3 })] },
      ]);
      expect(result).toMatchObject({ duplicate: false, streamVersions: { s: 2 } });
      expect(result.positions).toHaveLength(3);
      const read = await store.readStream(tenant, 's');
      expect(read.version).toBe(2);
      expect(read.events.map((e) => [e.type, e.streamVersion, e.data])).toEqual([
        ['A', 0, { n: 1 }],
        ['B', 1, { n: 2, text: 'ünïcode 대전' }],
        ['C', 2, { n: 3 }],
      ]);
      expect(read.events.map((e) => e.globalPosition)).toEqual(result.positions);
      expect(result.position).toBe(result.positions[2]);
      for (const e of read.events) {
        expect(e).toMatchObject({ tenant, streamId: 's', batch: 'b1', correlationId: 'c1', causationId: 'k1', commandId: 'cmd-1', actor: 'key-1' });
        expect(e.recordedAt.toISOString()).toBe('2026-12-01T00:00:00.000Z');
        expect(e.logPosition.prepare).toBe(e.globalPosition);
      }
      expect(await store.readStream(tenant, 'nothing')).toEqual({ version: -1, events: [] });
    });

    it('refuses a stale expected version with a typed conflict that brings the stream back, and writes nothing', async () => {
      await store.append(ctx(), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev(), ev()] }]);
      for (const expectedVersion of [0, 'no-stream', 5] as const) {
        const refused = await store.append(ctx({ commandId: 'cmd-x' }), [{ streamId: 's', expectedVersion, events: [ev()] }]).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(ExpectedVersionConflict);
        expect(refused).toMatchObject({ streamId: 's', actual: 1, expected: expectedVersion === 'no-stream' ? 'no stream' : String(expectedVersion) });
        expect((refused as ExpectedVersionConflict).current).toEqual(await store.readStream(tenant, 's'));
      }
      // Nothing of the refused appends stayed, their command id included: the corrected retry lands.
      const retry = await store.append(ctx({ commandId: 'cmd-x' }), [{ streamId: 's', expectedVersion: 1, events: [ev()] }]);
      expect(retry.duplicate).toBe(false);
      expect((await store.readStream(tenant, 's')).version).toBe(2);
      await store.append(ctx(), [{ streamId: 's', expectedVersion: 'any', events: [ev()] }]);
      expect((await mine()).length).toBe(4);
    });

    it('appends to several streams atomically: one conflict and none of them land', async () => {
      await store.append(ctx(), [{ streamId: 'a', expectedVersion: 'no-stream', events: [ev()] }]);
      const head = await store.head();
      await expect(
        store.append(ctx(), [
          { streamId: 'b', expectedVersion: 'no-stream', events: [ev(), ev()] },
          { streamId: 'a', expectedVersion: 'no-stream', events: [ev()] },
          { streamId: 'c', expectedVersion: 'no-stream', events: [ev()] },
        ]),
      ).rejects.toBeInstanceOf(ExpectedVersionConflict);
      expect((await store.readStream(tenant, 'b')).version).toBe(-1);
      expect((await store.readStream(tenant, 'c')).version).toBe(-1);
      expect(await store.head()).toBe(head);
      const both = await store.append(ctx(), [
        { streamId: 'b', expectedVersion: 'no-stream', events: [ev(), ev()] },
        { streamId: 'a', expectedVersion: 0, events: [ev()] },
      ]);
      expect(both.streamVersions).toEqual({ a: 1, b: 1 });
      expect((await mine()).map((e) => e.streamId)).toEqual(['a', 'b', 'b', 'a']);
    });

    it('appends a retried command once, answering with the original position, per tenant', async () => {
      const first = await store.append(ctx({ commandId: 'cmd-1' }), [{ streamId: 's', expectedVersion: 'any', events: [ev(), ev()] }]);
      const retry = await store.append(ctx({ commandId: 'cmd-1' }), [{ streamId: 's', expectedVersion: 'any', events: [ev()] }]);
      expect(retry).toMatchObject({ duplicate: true, position: first.position, positions: [] });
      expect((await store.readStream(tenant, 's')).events).toHaveLength(2);
      const own = tenant;
      tenant = `${own}-other`;
      expect((await store.append(ctx({ commandId: 'cmd-1' }), [{ streamId: 's', expectedVersion: 'any', events: [ev()] }])).duplicate).toBe(false);
      expect((await store.readStream(own, 's')).events).toHaveLength(2);
    });

    it('answers a duplicate with the fingerprint its command id was first claimed with, and writes nothing of it', async () => {
      const first = await store.append(ctx({ commandId: 'cmd-f', commandFingerprint: 'first' }), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev(), ev()] }]);
      const reused = await store.append(ctx({ commandId: 'cmd-f', commandFingerprint: 'second' }), [{ streamId: 'other', expectedVersion: 'no-stream', events: [ev()] }]);
      expect(reused).toMatchObject({ duplicate: true, position: first.position, positions: [], commandFingerprint: 'first' });
      expect(await store.readStream(tenant, 'other')).toEqual({ version: -1, events: [] });
      // Claimed without one: none to answer with.
      await store.append(ctx({ commandId: 'cmd-none' }), [{ streamId: 's', expectedVersion: 1, events: [ev()] }]);
      expect(await store.append(ctx({ commandId: 'cmd-none', commandFingerprint: 'later' }), [{ streamId: 's', expectedVersion: 2, events: [ev()] }])).toMatchObject({
        duplicate: true,
        commandFingerprint: null,
      });
      // A claim refused with its append keeps nothing: the one that lands is the one kept.
      await expect(store.append(ctx({ commandId: 'cmd-g', commandFingerprint: 'refused' }), [{ streamId: 's', expectedVersion: 0, events: [ev()] }])).rejects.toBeInstanceOf(ExpectedVersionConflict);
      await store.append(ctx({ commandId: 'cmd-g', commandFingerprint: 'landed' }), [{ streamId: 's', expectedVersion: 2, events: [ev()] }]);
      expect(await store.append(ctx({ commandId: 'cmd-g', commandFingerprint: 'landed' }), [{ streamId: 's', expectedVersion: 3, events: [ev()] }])).toMatchObject({
        duplicate: true,
        commandFingerprint: 'landed',
      });
      expect((await store.readStream(tenant, 's')).version).toBe(3);
      // Claimed by two appends at once: one lands, the other is its duplicate.
      const raced = await Promise.all(
        ['x', 'y'].map((f) => store.append(ctx({ commandId: 'cmd-race', commandFingerprint: f }), [{ streamId: `raced-${f}`, expectedVersion: 'no-stream', events: [ev()] }])),
      );
      const won = raced.findIndex((r) => !r.duplicate);
      expect(raced[1 - won]).toMatchObject({ duplicate: true, position: raced[won]!.position, commandFingerprint: ['x', 'y'][won] });
      expect((await mine()).filter((e) => e.commandId === 'cmd-race').map((e) => e.streamId)).toEqual([`raced-${['x', 'y'][won]}`]);
    });

    it('keeps tenants apart in streams, types and batches', async () => {
      const own = tenant;
      await store.append(ctx({ batch: 'shared' }), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev('Kept')] }]);
      tenant = `${own}-b`;
      await store.append(ctx({ batch: 'shared' }), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev('Kept'), ev('Kept')] }]);
      expect((await store.readStream(own, 's')).events).toHaveLength(1);
      expect((await store.readStream(tenant, 's')).events).toHaveLength(2);
      expect(await store.readType(own, 'Kept', 0, 100)).toHaveLength(1);
      expect(await store.readBatch(own, 'shared')).toHaveLength(1);
      expect(await store.readBatch(tenant, 'shared')).toHaveLength(2);
    });

    it('reads the log in one global order from any position, page by page, and by type after a position', async () => {
      for (let i = 0; i < 7; i++) await store.append(ctx(), [{ streamId: `s${i % 3}`, expectedVersion: 'any', events: [ev(i % 2 ? 'Odd' : 'Even', { i })] }]);
      const whole = await mine();
      expect(whole.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const all = await store.readAll(LOG_START, 1_000_000);
      const positions = all.map((e) => e.globalPosition);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(new Set(positions).size).toBe(positions.length);
      const paged: RecordedEvent[] = [];
      for (let after = LOG_START; ;) {
        const page = await store.readAll(after, 2);
        if (page.length === 0) break;
        paged.push(...page);
        after = page[page.length - 1]!.logPosition;
      }
      expect(paged.map((e) => e.globalPosition)).toEqual(positions);
      expect(await store.head()).toBe(positions.at(-1));
      const fourth = whole[3]!;
      expect((await store.readAll(fourth.logPosition, 100)).filter((e) => e.tenant === tenant).map((e) => (e.data as { i: number }).i)).toEqual([4, 5, 6]);
      expect((await store.readType(tenant, 'Odd', 0, 100)).map((e) => (e.data as { i: number }).i)).toEqual([1, 3, 5]);
      expect((await store.readType(tenant, 'Odd', whole[1]!.globalPosition, 1)).map((e) => (e.data as { i: number }).i)).toEqual([3]);
    });

    describe('subscriptions', () => {
      /** Waits (up to 10 s) until `done` holds. */
      const until = async (done: () => boolean): Promise<void> => {
        for (const started = Date.now(); !done();) {
          if (Date.now() - started > 10_000) throw new Error('timed out waiting for the subscription');
          await sleep(10);
        }
      };
      const numbers = (events: RecordedEvent[]) => events.filter((e) => e.tenant === tenant).map((e) => (e.data as { i: number }).i);

      it('catches up from a position, then goes live: every later event once, in log order, a page at a time', async () => {
        for (let i = 0; i < 5; i++) await store.append(ctx(), [{ streamId: `s${i % 2}`, expectedVersion: 'any', events: [ev('N', { i })] }]);
        const second = (await mine())[1]!;
        const got: RecordedEvent[] = [];
        const pages: number[] = [];
        const subscription = store.subscribe(
          second.logPosition,
          async (events) => {
            pages.push(events.length);
            got.push(...events);
          },
          { pageSize: 2 },
        );
        await until(() => numbers(got).length === 3);
        expect(numbers(got)).toEqual([2, 3, 4]);
        // Live: appended after it caught up, alone and as one batch over two streams.
        await store.append(ctx(), [{ streamId: 's0', expectedVersion: 'any', events: [ev('N', { i: 5 })] }]);
        await store.append(ctx(), [
          { streamId: 's1', expectedVersion: 'any', events: [ev('N', { i: 6 })] },
          { streamId: 's2', expectedVersion: 'no-stream', events: [ev('N', { i: 7 })] },
        ]);
        await until(() => numbers(got).length === 6);
        expect(numbers(got)).toEqual([2, 3, 4, 5, 6, 7]);
        const positions = got.map((e) => e.globalPosition);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        expect(new Set(positions).size).toBe(positions.length);
        expect(Math.max(...pages)).toBeLessThanOrEqual(2);
        expect(got.find((e) => e.tenant === tenant)).toMatchObject({ streamId: 's0', type: 'N', streamVersion: 1 });
        await subscription.close();
        await expect(subscription.ended).resolves.toBeUndefined();
        // Closed: nothing more arrives.
        await store.append(ctx(), [{ streamId: 's0', expectedVersion: 'any', events: [ev('N', { i: 8 })] }]);
        await sleep(300);
        expect(numbers(got)).toEqual([2, 3, 4, 5, 6, 7]);
      });

      it('starts after the position it is given: from the head, only what comes next', async () => {
        await store.append(ctx(), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev('N', { i: 0 }), ev('N', { i: 1 })] }]);
        const last = (await mine()).at(-1)!;
        const got: RecordedEvent[] = [];
        const subscription = store.subscribe(last.logPosition, async (events) => void got.push(...events));
        await store.append(ctx(), [{ streamId: 's', expectedVersion: 1, events: [ev('N', { i: 2 })] }]);
        await until(() => numbers(got).length === 1);
        await subscription.close();
        expect(numbers(got)).toEqual([2]);
      });

      it('holds back behind a slow consumer and loses nothing, one delivery at a time', async () => {
        const start = (await store.readAll(LOG_START, 1_000_000)).at(-1)?.logPosition ?? LOG_START;
        const got: RecordedEvent[] = [];
        let inFlight = 0;
        let overlapped = false;
        const subscription = store.subscribe(
          start,
          async (events) => {
            inFlight += 1;
            overlapped ||= inFlight > 1;
            await sleep(15);
            got.push(...events);
            inFlight -= 1;
          },
          { pageSize: 7 },
        );
        // 60 events in 12 appends, made while the consumer is still busy with the first pages.
        for (let b = 0; b < 12; b++) {
          await store.append(ctx(), [{ streamId: `s${b % 3}`, expectedVersion: 'any', events: Array.from({ length: 5 }, (_, k) => ev('N', { i: b * 5 + k })) }]);
        }
        await until(() => numbers(got).length >= 60);
        await subscription.close();
        expect(numbers(got)).toEqual(Array.from({ length: 60 }, (_, i) => i));
        expect(overlapped).toBe(false);
      });

      it('ends with the error of a delivery that throws, and delivers nothing after it', async () => {
        await store.append(ctx(), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev('N', { i: 0 })] }]);
        const before = (await mine())[0]!;
        let calls = 0;
        const subscription = store.subscribe(LOG_START, async (events) => {
          calls += 1;
          if (events.some((e) => e.globalPosition >= before.globalPosition)) throw new Error('the consumer failed');
        });
        await expect(subscription.ended).rejects.toThrow('the consumer failed');
        const afterFailure = calls;
        await store.append(ctx(), [{ streamId: 's', expectedVersion: 0, events: [ev('N', { i: 1 })] }]);
        await sleep(300);
        expect(calls).toBe(afterFailure);
        await subscription.close(); // closing an ended subscription is harmless
      });
    });

    it("says how much of the log lies past a checkpoint, bounded by a position, with the oldest event's time", async () => {
      const at = (minute: number) => ctx({ recordedAt: new Date(Date.UTC(2026, 11, 1, 10, minute)) });
      await store.append(at(0), [{ streamId: 'lag', expectedVersion: 'no-stream', events: [ev('A')] }]);
      await store.append(at(1), [{ streamId: 'lag', expectedVersion: 0, events: [ev('B')] }]);
      await store.append(at(2), [{ streamId: 'lag', expectedVersion: 1, events: [ev('C')] }]);
      const [a, b, c] = await mine();
      expect(b!.recordedAt).toEqual(new Date(Date.UTC(2026, 11, 1, 10, 1)));
      expect(await store.behind(a!.logPosition, null)).toEqual({ events: 2, oldest: b!.recordedAt });
      expect(await store.behind(a!.logPosition, b!.globalPosition)).toEqual({ events: 1, oldest: b!.recordedAt });
      expect(await store.behind(c!.logPosition, null)).toEqual({ events: 0, oldest: null });
      expect((await store.behind(LOG_START, null)).events).toBeGreaterThanOrEqual(3);
    });

    it('keeps what it stored whatever a caller does to what it gave or got', async () => {
      const data = { list: [1, 2], nested: { text: 'before' } };
      await store.append(ctx(), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev('A', data)] }]);
      data.nested.text = 'changed by the caller';
      const read = await store.readStream(tenant, 's');
      (read.events[0]!.data as typeof data).list.push(3);
      expect((await store.readStream(tenant, 's')).events[0]!.data).toEqual({ list: [1, 2], nested: { text: 'before' } });
    });

    it('rewrites only the data of an erasure, with its record in the same write, and still verifies (or, on a store that cannot, refuses and changes nothing)', async () => {
      const written = await store.append(ctx(), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev('A', { secret: 'x-1' }), ev('B', { n: 2 })] }]);
      await store.seal();
      const [first] = written.positions;
      if (!store.capabilities.redact) {
        const record = () => [{ streamId: `erasure-${tenant}`, expectedVersion: 'no-stream' as const, events: [ev(ERASURE_RECORDED, { redacted: [] })] }];
        await expect(store.redact(ctx(), [{ position: first!, data: { erased: 'e1' } }], record)).rejects.toBeInstanceOf(StoreCapabilityError);
        expect((await store.readStream(tenant, 's')).events.map((e) => e.data)).toEqual([{ secret: 'x-1' }, { n: 2 }]);
        expect(await store.readStream(tenant, `erasure-${tenant}`)).toEqual({ version: -1, events: [] });
        return;
      }
      const result = await store.redact(ctx({ actor: 'admin' }), [{ position: first!, data: { erased: 'e1' } }], (hashes) => [
        { streamId: `erasure-${tenant}`, expectedVersion: 'no-stream', events: [{ eventId: randomUUID(), type: ERASURE_RECORDED, data: { redacted: hashes } }] },
      ]);
      expect(result.positions).toHaveLength(1);
      const events = (await store.readStream(tenant, 's')).events;
      expect(events.map((e) => [e.type, e.streamVersion, e.data])).toEqual([
        ['A', 0, { erased: 'e1' }],
        ['B', 1, { n: 2 }],
      ]);
      expect((await store.readStream(tenant, `erasure-${tenant}`)).events[0]).toMatchObject({
        type: ERASURE_RECORDED,
        actor: 'admin',
        data: { redacted: [[first, expect.stringMatching(/^[0-9a-f]{64}$/)]] },
      });
      expect(await store.verify()).toMatchObject({ ok: true });
      // A refused record undoes the rewrite; another tenant's event is never rewritten.
      await expect(
        store.redact(ctx(), [{ position: written.positions[1]!, data: { erased: 'e2' } }], () => [
          { streamId: `erasure-${tenant}`, expectedVersion: 'no-stream', events: [ev(ERASURE_RECORDED, { redacted: [] })] },
        ]),
      ).rejects.toBeInstanceOf(ExpectedVersionConflict);
      expect((await store.readStream(tenant, 's')).events[1]!.data).toEqual({ n: 2 });
      await expect(store.redact(ctx({ tenant: `${tenant}-x` }), [{ position: first!, data: {} }], () => [])).rejects.toThrow(/not in its tenant/);
      expect(await store.verify()).toMatchObject({ ok: true });
    });
  });
}
