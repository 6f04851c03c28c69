/**
 * When a statement was said, apart from when it was recorded (both backends): a change dated
 * before a present-tense statement said minutes earlier still wins ("I live in Seattle", then "we
 * moved to Portland last weekend"), and a chat imported later, each message with its own time, in
 * order or shuffled, leaves the same current values as the chat sent live.
 */
import { ManualClock } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { type LedgerHandle, ledgerOn } from '../create-ledger';
import { MessageIngestor } from './message-ingestor';

describe.each(testBackends())('when a statement was said, in MessageIngestor on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let ingestor: MessageIngestor;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
    ingestor = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock });
  });
  afterAll(() => database.close());

  it.each([
    ['en', 'I live in Seattle.', 'We moved to Portland last weekend.', 'Seattle', 'Portland'],
    ['ko', '나는 서울에 살아.', '지난주에 부산으로 이사했어.', 'Seoul', 'Busan'],
  ])('a move dated last week, said minutes after a present-tense home (%s), is where the user lives now', async (tenant, home, move, before, after) => {
    clock.set(new Date('2026-11-20T18:00:00Z'));
    const first = await ingestor.ingest(tenant, { text: home });
    const key = { subject: first.candidates[0]!.subject!, relation: first.candidates[0]!.relation! };
    clock.advance(60_000);
    const between = clock.now().toISOString();
    clock.advance(4 * 60_000);
    const second = await ingestor.ingest(tenant, { text: move });
    expect(second.candidates[0]).toMatchObject({ ...key, value: after, outcome: 'superseded' });
    expect((await handle.ledger.fact(tenant, key)).value).toBe(after);
    // As known before the move was told, the user lived in the first city.
    expect((await handle.ledger.fact(tenant, { ...key, knownAt: between })).value).toBe(before);
    // Both stay on record: the first closed at its own start (as known now it held at no instant), history keeps the row it had.
    const old = await handle.ledger.memory(tenant, { memoryId: first.stored[0]! });
    expect(old).toMatchObject({ status: 'retired', supersededBy: second.stored[0], validTo: old.validFrom, saidAt: '2026-11-20T18:00:00.000Z' });
    const history = await handle.ledger.history(tenant, key);
    expect(history.entries.map((e) => e.value).sort()).toEqual([after, before].sort());
    expect(history.entries.find((e) => e.value === before)).toMatchObject({ knownTo: expect.any(String), closedBy: expect.objectContaining({ event: 'FactSuperseded' }) });
  });

  /** A chat: when each message was said. */
  const chat = [
    { at: '2026-10-03T09:00:00Z', text: 'My email is jane.doe@oldmail.com.' },
    { at: '2026-10-20T18:00:00Z', text: 'I live in Seattle.' },
    { at: '2026-10-20T18:05:00Z', text: 'We moved to Portland last weekend.' },
    { at: '2026-11-26T09:00:00Z', text: 'I switched to a new email address: jane@newco.io' },
  ];
  /** What holds now: the texts of the memories valid now, and the values of the keys the chat speaks of. */
  const current = async (tenant: string) => {
    clock.set(new Date('2026-12-05T00:00:00Z'));
    const active = (await handle.ledger.activeMemories(tenant)).map((m) => m.text).sort();
    const email = (await handle.ledger.fact(tenant, { subject: 'user', relation: 'email' })).value;
    const home = (await handle.ledger.fact(tenant, { subject: 'user', relation: 'lives in' })).value;
    return { active, email, home };
  };

  it('an imported chat, in order or shuffled, leaves the same current values as the chat sent live', async () => {
    for (const m of chat) {
      clock.set(new Date(m.at));
      await ingestor.ingest('live', { text: m.text });
    }
    const live = await current('live');
    expect(live).toEqual({ active: ['I switched to a new email address: jane@newco.io', 'We moved to Portland last weekend.'], email: null, home: 'Portland' });

    for (const [tenant, order] of [
      ['in-order', [0, 1, 2, 3]],
      ['reversed', [3, 2, 1, 0]],
      ['shuffled', [2, 0, 3, 1]],
    ] as const) {
      clock.set(new Date('2026-12-01T00:00:00Z'));
      for (const i of order) {
        clock.advance(1000);
        await ingestor.ingest(tenant, { text: chat[i]!.text, at: chat[i]!.at });
      }
      expect({ tenant, ...(await current(tenant)) }).toEqual({ tenant, ...live });
    }
  });

  it('an imported message is stored as said then: the memory says when, beside when it was recorded', async () => {
    clock.set(new Date('2026-12-02T00:00:00Z'));
    const sent = await ingestor.ingest('said', { text: 'I adopted a greyhound called Pip.', at: '2026-10-20T19:00:00Z' });
    const memory = await handle.ledger.memory('said', { memoryId: sent.stored[0]! });
    expect(memory).toMatchObject({ saidAt: '2026-10-20T19:00:00.000Z', recordedAt: '2026-12-02T00:00:00.000Z' });
  });
});
