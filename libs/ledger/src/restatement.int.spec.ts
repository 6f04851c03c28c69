import { frameStatement, frameStem, frameText, ManualClock } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from './create-ledger';
import { FrameCache } from './frame-cache';

/** A prose statement said again with one value changed (frame alignment), through the real write path and read models. */
describe.each(testBackends())('restatement on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
  const day = () => clock.advance(86_400_000);

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
  });
  afterAll(() => database.close());

  it('replaces the earlier statement, keys the frame, and keeps the old value on record with the rule', async () => {
    const { ledger } = handle;
    const first = await ledger.assert('r1', { text: 'The staging database runs on db-07.internal.', speaker: 'tool' });
    day();
    const second = await ledger.assert('r1', { text: 'The staging database runs on db-09.internal.', speaker: 'tool' });
    expect(second.restated).toEqual([
      expect.objectContaining({
        memoryId: first.memoryId,
        action: 'replace',
        holds: 'one',
        earlierValue: 'db-07.internal',
        nextValue: 'db-09.internal',
        effect: 'retracted',
        frame: 'staging database runs on …',
      }),
    ]);
    const old = await ledger.memory('r1', { memoryId: first.memoryId, minPosition: second.position });
    expect(old).toMatchObject({ status: 'retired', supersededBy: second.memoryId, validTo: '2026-03-02T00:00:00.000Z' });
    const now = await ledger.memory('r1', { memoryId: second.memoryId });
    expect(now).toMatchObject({ status: 'active', kind: 'fact', subject: 'The staging database', relation: 'runs on …', value: 'db-09.internal' });
    // The earlier memory's own history says what closed it, why, under which batch, and what took its place.
    const closed = (await ledger.memoryHistory('r1', { memoryId: first.memoryId })).entries.find((e) => e.closedBy?.event === 'FactRetracted');
    expect(closed?.closedBy).toMatchObject({
      by: second.memoryId,
      batch: `restatement:${second.memoryId}`,
      reason: expect.stringContaining('"db-07.internal" in the frame "staging database runs on …"'),
    });
    // Its retirement keeps only its own words and the shared frame: nothing of the new value.
    expect(closed?.closedBy?.reason).not.toContain('db-09');

    // The next restatement finds the key and goes into it.
    day();
    const third = await ledger.assert('r1', { text: 'The staging database runs on db-11.internal.', speaker: 'document' });
    expect(third.restated).toEqual([expect.objectContaining({ memoryId: second.memoryId, effect: 'retracted', rule: expect.stringContaining('restated with another value before') })]);
    const history = await ledger.history('r1', { subject: 'The staging database', relation: 'runs on …', minPosition: third.position });
    expect(
      history.entries
        .filter((e) => e.closedBy === null)
        .map((e) => [e.value, e.validTo])
        .sort(),
    ).toEqual([
      ['db-09.internal', '2026-03-03T00:00:00.000Z'],
      ['db-11.internal', null],
    ]);
    const fact = await ledger.fact('r1', { subject: 'the staging database', relation: 'runs on …' });
    expect(fact.values).toEqual(['db-11.internal']);
    expect((await ledger.fact('r1', { subject: 'the staging database', relation: 'runs on …', validAt: '2026-03-02T12:00:00Z' })).values).toEqual(['db-09.internal']);
  });

  it('plans again on what stands when another writer changed what a restatement was planned on (the frame guard)', async () => {
    // Another process on the same log, with copies of its own.
    const other = ledgerOn(database, { clock });
    const first = await handle.ledger.assert('r9', { text: 'The build cache lives on cache-01.internal.', speaker: 'tool' });
    day();
    // The other process has no copy of this subject and verb: it guesses nothing stands, the guard
    // refuses the append with what does, and the restatement is planned again on it.
    const second = await other.ledger.assert('r9', { text: 'The build cache lives on cache-02.internal.', speaker: 'tool' });
    expect(second.restated).toEqual([expect.objectContaining({ memoryId: first.memoryId, effect: 'retracted' })]);
    day();
    // This process's copy still holds the first value: planned on it, the append is refused, and
    // the restatement lands on the second value instead.
    const third = await handle.ledger.assert('r9', { text: 'The build cache lives on cache-03.internal.', speaker: 'tool' });
    expect(third.restated).toEqual([expect.objectContaining({ memoryId: second.memoryId, effect: 'retracted', earlierValue: 'cache-02.internal' })]);
    const fact = await handle.ledger.fact('r9', { subject: 'the build cache', relation: 'lives on …', minPosition: third.position });
    expect(fact.values).toEqual(['cache-03.internal']);
    const active = (await handle.ledger.activeMemories('r9', {})).map((m) => m.text);
    expect(active).toEqual(['The build cache lives on cache-03.internal.']);
    expect(await handle.ledger.memory('r9', { memoryId: first.memoryId })).toMatchObject({ status: 'retired', supersededBy: second.memoryId });
    expect(await handle.ledger.memory('r9', { memoryId: second.memoryId })).toMatchObject({ status: 'retired', supersededBy: third.memoryId });
    // Nothing of the refused appends is in the log: each statement was written once.
    const texts = await sql<{ text: string }>`SELECT data ->> 'text' AS text FROM fl_events WHERE tenant = 'r9' AND type = 'FactAsserted'`.execute(handle.database.db);
    expect(texts.rows.map((r) => r.text).sort()).toEqual(['The build cache lives on cache-01.internal.', 'The build cache lives on cache-02.internal.', 'The build cache lives on cache-03.internal.']);
  });

  it("words a statement's start as the database's look-up does (frameText beside fl_frame_text)", async () => {
    const texts = [
      'The staging database runs on db-07.internal.',
      "Tom's laptop is a ThinkPad — an X1, I think.",
      'Tom’s  LAPTOP   is...  the   best!!',
      'A quota of 50 GB applies to bucket b-1 (us-east-1).',
      'Café Ünïcode: naïve façade, 3.14 and 1,000.',
      '회의실 예약 담당자는 김민수입니다.',
      'an apple a day; The end',
      '',
      '!!! ... ???',
      `${'word '.repeat(120)}tail`,
    ];
    for (const text of texts) {
      const db = (await sql<{ t: string }>`SELECT fl_frame_text(${text}) AS t`.execute(handle.database.db)).rows[0]!.t;
      expect([text, frameText(text)]).toEqual([text, db]);
    }
  });

  it('guesses after each append what the look-up will find there, as the database finds it', async () => {
    const frames = new FrameCache();
    const own = ledgerOn(database, { clock, frames });
    const t = 'r-guess';
    const stems = ['The payment service depends on Redis.', 'The quota of bucket b1 is 5 GB.', 'The quota of bucket b10 is 9 GB.'].map((text) => frameStem(frameStatement(text, 'en')!)!);
    const same = async (): Promise<void> => {
      for (const stem of stems) {
        const guess = frames.get(t, stem);
        if (!guess) continue;
        const found = await own.reader.restating(t, { text: stem, stem, now: clock.now() });
        expect([stem, guess.map((m) => [m.memoryId, m.status, m.text]).sort()]).toEqual([stem, found.map((m) => [m.memoryId, m.status, m.text]).sort()]);
      }
    };
    await own.ledger.assert(t, { text: 'The payment service depends on Redis.', speaker: 'document' });
    await same();
    day();
    // Several statements of one subject and verb in one append, and one of a look-alike subject.
    await own.ledger.writeMany(t, [
      { assert: { text: 'The payment service depends on Kafka.', speaker: 'document' } },
      { assert: { text: 'The payment service depends on Postgres.', speaker: 'document' } },
      { assert: { text: 'The quota of bucket b10 is 9 GB.', speaker: 'document' } },
    ]);
    await same();
    day();
    await own.ledger.assert(t, { text: 'The quota of bucket b1 is 5 GB.', speaker: 'document' });
    await same();
    day();
    // A restatement: the earlier statement leaves the look-up's answer, the new one is in it.
    const restated = await own.ledger.assert(t, { text: 'The quota of bucket b1 is 7 GB.', speaker: 'document' });
    expect(restated.restated).toEqual([expect.objectContaining({ effect: 'retracted' })]);
    await same();
    expect(stems.filter((s) => frames.get(t, s) !== undefined)).toEqual(stems);
  });

  it('keeps both where the frame holds a set, an event or nothing certain, and says so', async () => {
    const { ledger } = handle;
    const pairs = [
      ['Alice speaks French.', 'Alice speaks German.', 'many'],
      ['Mia visited Kyoto in 2019.', 'Mia visited Osaka in 2019.', 'many'],
      ['Nora is fond of opera.', 'Nora is fond of jazz.', 'unsure'],
    ] as const;
    for (const [a, b, holds] of pairs) {
      const first = await ledger.assert('r2', { text: a });
      day();
      const second = await ledger.assert('r2', { text: b });
      expect(second.restated).toEqual([expect.objectContaining({ memoryId: first.memoryId, action: 'keep-both', holds, effect: 'kept' })]);
      expect((await ledger.memory('r2', { memoryId: first.memoryId, minPosition: second.position })).status).toBe('active');
      expect((await ledger.memory('r2', { memoryId: second.memoryId })).kind).toBe('prose');
    }
  });

  it('fills history with a late, older statement and never retires the newer value', async () => {
    const { ledger } = handle;
    const current = await ledger.assert('r3', { text: 'The design team sits on the 6th floor.', validFrom: '2026-02-01' });
    day();
    const late = await ledger.assert('r3', { text: 'The design team sits on the 4th floor.', validFrom: '2026-01-01' });
    expect(late.restated).toEqual([expect.objectContaining({ memoryId: current.memoryId, effect: 'filled-history' })]);
    expect((await ledger.memory('r3', { memoryId: current.memoryId, minPosition: late.position })).status).toBe('active');
    expect(await ledger.memory('r3', { memoryId: late.memoryId })).toMatchObject({ validFrom: '2026-01-01T00:00:00.000Z', validTo: '2026-02-01T00:00:00.000Z' });
  });

  it('is undone by rolling its batch back: both statements active again, apart', async () => {
    const { ledger } = handle;
    const first = await ledger.assert('r4', { text: 'The support hotline is 555-0100.' });
    day();
    const second = await ledger.assert('r4', { text: 'The support hotline is 555-0199.' });
    expect(second.restated?.[0]?.effect).toBe('retracted');
    const rollback = await ledger.rollback('r4', { batch: `restatement:${second.memoryId}` });
    expect(rollback.items).toContainEqual(expect.objectContaining({ memoryId: first.memoryId, result: 'compensated' }));
    const old = await ledger.memory('r4', { memoryId: first.memoryId, minPosition: rollback.position });
    expect(old).toMatchObject({ status: 'active', supersededBy: null, validTo: null });
    expect((await ledger.memory('r4', { memoryId: second.memoryId })).status).toBe('active');
  });

  it("never replaces another tenant's, another speaker's \"my\", a higher authority, or the user's statement on the assistant's word", async () => {
    const { ledger } = handle;
    const other = await ledger.assert('r6-a', { text: 'The VPN gateway is vpn-2.corp.example.' });
    day();
    const mine = await ledger.assert('r6-b', { text: 'The VPN gateway is vpn-3.corp.example.' });
    expect(mine.restated).toBeUndefined();
    expect((await ledger.memory('r6-a', { memoryId: other.memoryId, minPosition: mine.position })).status).toBe('active');

    const userSaid = await ledger.assert('r6-c', { text: 'My desk is on the 3rd floor.', speaker: 'user' });
    day();
    const assistantSaid = await ledger.assert('r6-c', { text: 'My desk is on the 5th floor.', speaker: 'assistant' });
    expect(assistantSaid.restated).toBeUndefined();
    const userAgain = await ledger.assert('r6-d', { text: 'The deploy window is 22:00.', speaker: 'user' });
    day();
    const assistantAgain = await ledger.assert('r6-d', { text: 'The deploy window is 23:30.', speaker: 'assistant' });
    expect(assistantAgain.restated).toEqual([expect.objectContaining({ memoryId: userAgain.memoryId, action: 'keep-both', rule: expect.stringContaining('assistant') })]);
    const documented = await ledger.assert('r6-e', { text: 'The cache TTL is 300 seconds.', speaker: 'document', authority: 5 });
    day();
    const hearsay = await ledger.assert('r6-e', { text: 'The cache TTL is 900 seconds.', speaker: 'user' });
    expect(hearsay.restated).toEqual([expect.objectContaining({ memoryId: documented.memoryId, action: 'keep-both', rule: expect.stringContaining('authority') })]);
    for (const [tenant, id] of [
      ['r6-c', userSaid.memoryId],
      ['r6-d', userAgain.memoryId],
      ['r6-e', documented.memoryId],
    ] as const) {
      expect((await ledger.memory(tenant, { memoryId: id, minPosition: hearsay.position })).status).toBe('active');
    }
  });

  it('is off with restatement off: the same sentence with another value stays beside the old one', async () => {
    const off = ledgerOn(database, { clock, restatement: false });
    const first = await off.ledger.assert('r7', { text: 'The head of the platform team is Marta Kowalski.' });
    day();
    const second = await off.ledger.assert('r7', { text: 'The head of the platform team is Daniel Osei.' });
    expect(second.restated).toBeUndefined();
    expect((await off.ledger.memory('r7', { memoryId: first.memoryId, minPosition: second.position })).status).toBe('active');
  });

  it('reopens the answers that cited the replaced statement', async () => {
    const { ledger, answers, saga } = handle;
    const first = await ledger.assert('r8', { text: 'The owner of the billing repository is Priya Nair.' });
    const answer = await answers.record('r8', { question: 'Who owns billing?', text: 'Priya Nair.', cites: [first.memoryId] });
    day();
    await ledger.assert('r8', { text: 'The owner of the billing repository is Tomás Ruiz.' });
    await saga.catchUp();
    const view = await answers.answer('r8', { answerId: answer.answerId });
    expect(view.status).toBe('reopened');
    expect(view.citations[0]?.now).toMatchObject({ status: 'retired', supersededBy: expect.any(String) });
  });
});
