/**
 * Resolution through the real write path (both backends): a change said in other words retires
 * the earlier memory in the same append, says why in the record, the retraction and the history,
 * rolls back as a batch, reopens answers that cited it; look-alikes and unsure pairs keep both.
 */
import { ManualClock } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { type LedgerHandle, ledgerOn } from '../create-ledger';
import { MessageIngestor } from './message-ingestor';

describe.each(testBackends())('resolution in MessageIngestor on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let ingestor: MessageIngestor;
  let off: MessageIngestor;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
    ingestor = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock });
    off = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock, resolution: false });
  });
  afterAll(() => database.close());

  const say = async (tenant: string, text: string, via = ingestor, speaker: 'user' | 'assistant' = 'user') => {
    clock.advance(60_000);
    return via.ingest(tenant, { text, speaker });
  };
  const status = async (tenant: string, memoryId: string) => (await handle.ledger.memory(tenant, { memoryId })).status;

  it('retires a memory changed in other words, in the same append, and says why everywhere', async () => {
    const before = await say('a', 'We build our services with Gradle.');
    const oldId = before.stored[0]!;
    const after = await say('a', 'We switched from Gradle to Bazel last month.');
    expect(after.resolved).toEqual({ retired: 1, keptUnsure: 0, batch: `resolution:${after.messageId}` });
    const decided = after.candidates[0]!.resolution!;
    expect(decided).toEqual([
      expect.objectContaining({
        memoryId: oldId,
        action: 'supersede',
        effect: 'retracted',
        text: 'We build our services with Gradle.',
        scores: expect.objectContaining({ oldValue: 'Gradle', newValue: 'Bazel' }),
      }),
    ]);
    expect(await status('a', oldId)).toBe('retired');
    expect(await status('a', after.stored[0]!)).toBe('active');
    // The retraction landed with the new memory and the record: one position.
    const history = await handle.ledger.memoryHistory('a', { memoryId: oldId });
    const closed = history.entries.find((e) => e.closedBy?.event === 'FactRetracted')!;
    expect(closed.closedBy).toMatchObject({ position: after.position - 1, batch: after.resolved.batch, reason: expect.stringContaining(`message ${after.messageId}`) });
    // The record, read back, says the same.
    expect((await ingestor.message('a', after.messageId)).candidates[0]!.resolution).toEqual(decided);
  });

  it("retires with the user's changed value the assistant's short turns that repeated it, in the record and the batch; not one that says the new value too, nor a rule's echo", async () => {
    const gym = await say('echo', 'The gym we go to is Granite Peak Climbing.');
    const echo = await say('echo', 'Noted: Granite Peak Climbing it is.', ingestor, 'assistant');
    const both = await say('echo', 'If you ever leave Granite Peak Climbing, Cedar Hall Fitness is close by.', ingestor, 'assistant');
    // A rule for later changes nothing now, whoever says it.
    const rule = await say('echo', 'When we get a new coach, the gym becomes Cedar Hall Fitness.');
    expect(rule.resolved.retired).toBe(0);
    expect(await status('echo', gym.stored[0]!)).toBe('active');
    const change = await say('echo', 'We switched: the gym is Cedar Hall Fitness now.');
    expect(change.candidates[0]!.resolution).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ memoryId: gym.stored[0], effect: 'retracted' }),
        expect.objectContaining({ memoryId: echo.stored[0], effect: 'retracted', rule: expect.stringContaining('the assistant repeated "Granite Peak Climbing"') }),
      ]),
    );
    expect(await status('echo', echo.stored[0]!)).toBe('retired');
    expect(await status('echo', both.stored[0]!)).toBe('active');
    // Rolled back with the change: the echo is back too.
    await handle.ledger.rollback('echo', { batch: change.resolved.batch! });
    expect(await status('echo', echo.stored[0]!)).toBe('active');
  });

  it('rolls the retirements of a message back as a batch: the earlier memory is back, the new one stays', async () => {
    const first = await say('b', 'My manager is Priya.');
    const second = await say('b', 'I report to Tomas now.');
    expect(await status('b', first.stored[0]!)).toBe('retired');
    const rolled = await handle.ledger.rollback('b', { batch: second.resolved.batch! });
    expect(rolled.items.filter((i) => i.result === 'compensated')).toHaveLength(1);
    expect(await status('b', first.stored[0]!)).toBe('active');
    expect(await status('b', second.stored[0]!)).toBe('active');
  });

  it('withdraws a memory that a correction says never held: as-of reads before it still show what was believed', async () => {
    const said = await say('c', "I'm allergic to shellfish.");
    const knownBefore = clock.now().toISOString();
    const corrected = await say('c', "Turns out I'm not allergic to shellfish after all.");
    expect(corrected.candidates[0]!.resolution![0]).toMatchObject({ action: 'correct', effect: 'withdrawn' });
    expect(await status('c', said.stored[0]!)).toBe('retired');
    const history = await handle.ledger.memoryHistory('c', { memoryId: said.stored[0]! });
    const believed = history.entries.find((e) => e.knownTo !== null)!;
    expect(believed.knownFrom! <= knownBefore && knownBefore < believed.knownTo!).toBe(true);
  });

  it('reopens an answer that cited the retired memory', async () => {
    const home = await say('d', "I'm based in Lisbon.");
    const answer = await handle.answers.record('d', { question: 'Where do I live?', text: 'In Lisbon.', cites: [home.stored[0]!] });
    await say('d', 'I moved over to Porto in May.');
    await handle.saga.catchUp();
    expect((await handle.answers.answer('d', { answerId: answer.answerId })).status).toBe('reopened');
  });

  it('keeps look-alikes apart, and a resembling statement without a cue as unsure, both recorded', async () => {
    const mine = await say('e', 'I live in Seoul.');
    const brother = await say('e', 'My brother lives in Busan.');
    expect(brother.resolved.retired).toBe(0);
    const extra = await say('e', 'I have a dog named Max.');
    const also = await say('e', 'I also have a cat named Luna.');
    expect(also.resolved).toEqual({ retired: 0, keptUnsure: 1, batch: null });
    expect(also.candidates[0]!.resolution![0]).toMatchObject({ memoryId: extra.stored[0], action: 'keep-both', effect: 'kept' });
    for (const m of [mine, brother, extra, also]) expect(await status('e', m.stored[0]!)).toBe('active');
  });

  it('never retires an event: what happened stays true whatever holds now', async () => {
    const offer = await say('h', 'I got the job offer from the Seoul office today!');
    expect(offer.candidates[0]!.type).toBe('milestone');
    const moved = await say('h', 'I work at the Busan office now.');
    expect(moved.candidates[0]!.resolution!.map((r) => r.memoryId)).not.toContain(offer.stored[0]);
    expect(await status('h', offer.stored[0]!)).toBe('active');
  });

  it("never retires another speaker's memory, and does nothing when resolution is off", async () => {
    const guess = await say('f', 'You drink coffee every morning.', ingestor, 'assistant');
    const mine = await say('f', 'I drink green tea every morning these days.');
    expect(mine.resolved.retired).toBe(0);
    expect(await status('f', guess.stored[0]!)).toBe('active');
    const before = await say('g', 'The session timeout is 30 minutes.', off);
    const after = await say('g', 'We trimmed the session timeout to 10 minutes.', off);
    expect(after.resolved).toEqual({ retired: 0, keptUnsure: 0, batch: null });
    expect(after.candidates[0]!.resolution).toBeUndefined();
    expect(await status('g', before.stored[0]!)).toBe('active');
  });
});
