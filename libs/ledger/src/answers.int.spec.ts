import { ManualClock } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from './create-ledger';
import { ReReviewSaga } from './re-review.saga';
import { AnswerReader } from '@factledger/projections';

describe.each(testBackends())('answers, re-review and verification on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
  });
  afterAll(() => database.close());

  const reopenedEvents = async (tenant: string): Promise<number> =>
    Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events WHERE tenant = ${tenant} AND type = 'AnswerReopened'`.execute(database.db)).rows[0]!.n);

  it('reopens exactly the answers whose cited version changed past the threshold, once, even when the log is replayed', async () => {
    const { ledger, answers, saga } = handle;
    const port = await ledger.assert('r', { subject: 'api', relation: 'port', value: '8000' });
    const diet = await ledger.assert('r', { subject: 'user', relation: 'diet', value: 'vegetarian' });
    const a1 = await answers.record('r', { question: 'Which port?', text: 'Port 8000.', cites: [port.memoryId] });
    const a2 = await answers.record('r', { question: 'Dinner?', text: 'Something vegetarian.', cites: [diet.memoryId] });
    clock.advance(1000);
    await ledger.assert('r', { subject: 'user', relation: 'diet', value: 'vegetarian' }); // reinforcement
    await ledger.assert('r', { subject: 'api', relation: 'port', value: '8080' }); // supersession
    await ledger.assert('r', { subject: 'api', relation: 'port', value: '9090' }); // supersedes 8080, not the cited 8000
    expect(await saga.catchUp()).toBe(1);
    expect((await answers.answer('r', { answerId: a1.answerId })).status).toBe('reopened');
    expect((await answers.answer('r', { answerId: a1.answerId })).reopened).toMatchObject({ memoryId: port.memoryId, cause: { event: 'FactSuperseded' } });
    expect((await answers.answer('r', { answerId: a2.answerId })).status).toBe('answered');
    expect(await reopenedEvents('r')).toBe(1);

    // As after a crash that lost the checkpoint: replay everything with a second saga instance.
    await sql`UPDATE fl_checkpoints SET prepare = 0 WHERE name = 're-review'`.execute(database.db);
    const again = new ReReviewSaga(database.db, { answers, reader: new AnswerReader(database.db), runner: handle.runner }, undefined, 1);
    expect(await again.catchUp()).toBe(0);
    expect(await reopenedEvents('r')).toBe(1);

    // Reviewed, then a later change reopens it again; an answer given after a change is not reopened by it.
    await answers.review('r', { answerId: a1.answerId, note: 'told the user' });
    const a3 = await answers.record('r', { question: 'Dinner?', text: 'Vegetarian.', cites: [diet.memoryId] });
    const view = await answers.answer('r', { answerId: a1.answerId });
    expect(view.status).toBe('reviewed');
    expect(view.citations[0]).toMatchObject({ memoryId: port.memoryId, value: '8000', now: { status: 'retired' } });
    await ledger.quarantine('r', { memoryId: diet.memoryId });
    await saga.catchUp();
    expect((await answers.reopened('r')).map((a) => a.answerId).sort()).toEqual([a2.answerId, a3.answerId].sort());
  });

  it('with the workers started in process, reopens a citing answer as the change lands, with no pass and no catch-up called', async () => {
    const { ledger, answers } = handle;
    const city = await ledger.assert('w', { subject: 'user', relation: 'city', value: 'Lisbon' });
    const answer = await answers.record('w', { question: 'Where do I live?', text: 'Lisbon.', cites: [city.memoryId] });
    // Passes every 60 s, the first at start: what happens after it within the test is the subscriptions' doing.
    handle.startWorkers(60_000);
    try {
      clock.advance(1000);
      await ledger.assert('w', { subject: 'user', relation: 'city', value: 'Porto' });
      for (const started = Date.now(); (await answers.answer('w', { answerId: answer.answerId })).status !== 'reopened';) {
        if (Date.now() - started > 10_000) throw new Error('the answer was not reopened within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await answers.answer('w', { answerId: answer.answerId })).reopened).toMatchObject({ memoryId: city.memoryId, cause: { event: 'FactSuperseded' } });
    } finally {
      await handle.stopWorkers();
    }
    expect(await reopenedEvents('w')).toBe(1);
  });

  it('gives one verdict per claim, with provenance decisive', async () => {
    const { ledger, verifier } = handle;
    const old = await ledger.assert('v', { subject: 'user', relation: 'address', value: '12 Haeundae-ro, Busan' });
    clock.advance(1000);
    const now = await ledger.assert('v', { subject: 'user', relation: 'address', value: '88 Dunsan-ro, Daejeon' });
    const diet = await ledger.assert('v', { subject: 'user', relation: 'diet', value: 'vegetarian' });
    await ledger.assert('v', { subject: 'user', relation: 'favourite food', value: 'bibimbap', text: 'Your favourite food is probably bibimbap.', speaker: 'assistant' });
    const { verdicts } = await verifier.verify('v', {
      claims: [
        { cites: old.memoryId, says: '12 Haeundae-ro, Busan', speaker: 'user' },
        { cites: now.memoryId, says: '88 Dunsan-ro, Daejeon', speaker: 'user' },
        { cites: diet.memoryId, says: 'vegan', speaker: 'user' },
        { says: 'my favourite food is bibimbap', speaker: 'user' },
        { says: 'I play the cello', speaker: 'user' },
        { says: 'I live at 12 Haeundae-ro, Busan', speaker: 'user' },
      ],
    });
    expect(verdicts.map((v) => v.verdict)).toEqual(['stale', 'supported', 'distorted', 'fabricated', 'fabricated', 'stale']);
    expect(verdicts[0]!.current).toEqual([expect.objectContaining({ value: '88 Dunsan-ro, Daejeon' })]);
    expect(verdicts[2]!.reason).toContain('vegetarian');
    expect(verdicts[3]!.reason).toContain('assistant');
    await expect(verifier.verify('v', { claims: [] })).rejects.toThrow(/claims/);
  });
});
