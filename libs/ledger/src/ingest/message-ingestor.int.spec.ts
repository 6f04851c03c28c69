/** IngestMessage end to end on the real store and the real embedding model: triage, extraction, gates, one append. */
import { InvalidInputError, ManualClock, UnknownMessageError } from '@factledger/domain';
import { CachedEmbedder, InMemoryEmbeddingCache, UseLiteEmbedder } from '@factledger/embeddings';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { readCheckpoint } from '@factledger/projections';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from '../create-ledger';
import { AdmissionPolicies } from './admission-policy';
import { MessageIngestor } from './message-ingestor';
import { ruleTriager } from './message-triager';

const embedder = new CachedEmbedder(new UseLiteEmbedder(), new InMemoryEmbeddingCache());

describe.each(testBackends())('MessageIngestor on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let ingestor: MessageIngestor;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
  const policies = new AdmissionPolicies({ tenants: { strict: { types: { milestone: { onFail: 'reject', minSimilarity: 0.99 } } } } }, 'test policy');

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
    ingestor = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock, policies, embedder });
  });
  afterAll(() => database.close());

  const events = async (): Promise<number> => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events`.execute(database.db)).rows[0]!.n);

  it('stores a fact with its provenance and the decision record in one append', async () => {
    const r = await ingestor.ingest('t', { text: 'I moved to Daejeon last week.', messageId: 'm-1' });
    expect(r).toMatchObject({ kind: 'inform', topic: 'home', language: 'en', source: 'message:m-1', stored: [expect.any(String)] });
    expect(r.candidates[0]).toMatchObject({ verdict: 'admitted', type: 'profile', subject: 'user', relation: 'lives in', value: 'Daejeon', outcome: 'created' });
    const m = await handle.ledger.memory('t', { memoryId: r.stored[0]!, minPosition: r.position });
    expect(m).toMatchObject({ speaker: 'user', source: 'message:m-1', value: 'Daejeon', core: true, validFrom: '2026-11-24T00:00:00.000Z' });
    const fact = await handle.store.readStream('t', m.memoryId ? (await handle.reader.memory('t', m.memoryId))!.streamId : '');
    const record = await handle.store.readStream('t', 'message:m-1');
    expect(record.events[0]!.recordedAt).toEqual(fact.events[0]!.recordedAt);
    expect(record.events[0]!.globalPosition).toBe(r.position);
    expect(await ingestor.message('t', 'm-1')).toMatchObject({ messageId: 'm-1', replayed: false, stored: r.stored });
  });

  it('reinforces the same fact said in Korean, and a retried message appends nothing twice', async () => {
    clock.advance(60_000);
    const r = await ingestor.ingest('t', { text: '나 이번 주에 대전으로 이사했어.', messageId: 'm-2' });
    expect(r.language).toBe('ko');
    expect(r.candidates[0]).toMatchObject({ value: 'Daejeon', relation: 'lives in', outcome: 'reinforced' });
    const before = await events();
    const again = await ingestor.ingest('t', { text: '나 이번 주에 대전으로 이사했어.', messageId: 'm-2' });
    expect(again).toMatchObject({ replayed: true, position: r.position, stored: r.stored });
    expect(await events()).toBe(before);
  });

  it('answers a retried message from its record without planning it again (the state now holds its own first attempt)', async () => {
    let triaged = 0;
    const counting = { ...ruleTriager, triage: (text: string) => (triaged++, ruleTriager.triage(text)) };
    const retrying = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock, policies, embedder, triager: counting });
    clock.advance(60_000);
    await retrying.ingest('retry', { text: 'My email address is mina@old.example.', messageId: 'r-1' });
    const first = await retrying.ingest('retry', { text: 'My email address is now mina@new.example.', messageId: 'r-2' });
    expect(first.stored).toHaveLength(1);
    const before = [await events(), triaged];
    const again = await retrying.ingest('retry', { text: 'My email address is now mina@new.example.', messageId: 'r-2' });
    expect(again).toMatchObject({ replayed: true, position: first.position, stored: first.stored, resolved: first.resolved });
    expect([await events(), triaged]).toEqual(before);
  });

  it('records questions and noise, stores no memory from them', async () => {
    for (const text of ['Where do I live now?', '내 이메일 주소 뭐였지?', 'haha ok', '*smiles softly and leans closer*', 'Thanks, that fixed it!']) {
      const r = await ingestor.ingest('t', { text });
      expect(r.stored).toEqual([]);
      // The record alone moved the facts checkpoint in its own transaction: nothing left to catch up.
      expect(Number((await readCheckpoint(database.db, 'facts')).prepare)).toBe(r.position);
      const record = await ingestor.message('t', r.messageId);
      expect(record.candidates.every((c) => c.verdict === 'rejected' && c.reason.length > 0)).toBe(true);
    }
  });

  it('keeps what the assistant said as the assistant’s', async () => {
    const r = await ingestor.ingest('t', { text: 'Your favourite colour is probably blue.', speaker: 'assistant' });
    const m = await handle.ledger.memory('t', { memoryId: r.stored[0]! });
    expect(m).toMatchObject({ subject: 'user', relation: 'favourite colour', value: 'blue', speaker: 'assistant', type: 'preference' });
  });

  it('admits a milestone through both gates and records the cosine; retypes or rejects per tenant policy', async () => {
    const ok = await ingestor.ingest('t', { text: 'I got the job offer from the Seoul office today!' });
    expect(ok.candidates).toHaveLength(1);
    expect(ok.candidates[0]).toMatchObject({ verdict: 'admitted', type: 'milestone' });
    const similarity = ok.candidates[0]!.gates.find((g) => g.gate === 'milestone: similarity')!;
    expect(similarity.passed).toBe(true);
    expect(Number(similarity.detail.match(/cosine (\S+)/)![1])).toBeGreaterThanOrEqual(0.5);

    const plain = await ingestor.ingest('t', { text: 'I finally got a haircut today!' });
    expect(plain.candidates[0]).toMatchObject({ verdict: 'retyped', proposedType: 'milestone', type: 'fact' });
    expect(plain.candidates[0]!.gates).toContainEqual(expect.objectContaining({ gate: 'milestone: keywords', passed: false }));

    const strict = await ingestor.ingest('strict', { text: 'I got the job offer from the Seoul office today!' });
    expect(strict.candidates[0]).toMatchObject({ verdict: 'rejected', type: null });
    expect(strict.stored).toEqual([]);
  });

  it('says when similarity could not be measured (Korean under an English-only model)', async () => {
    const r = await ingestor.ingest('t', { text: '드디어 대학교 졸업했어! 오늘 졸업식이었어' });
    expect(r.candidates[0]!.gates).toContainEqual(expect.objectContaining({ gate: 'milestone: similarity', passed: true, detail: expect.stringContaining('not measured') }));
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const before = await events();
    await expect(ingestor.ingest('t', { text: '' })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ingestor.ingest('t', { text: 'hi', speaker: 'robot' } as never)).rejects.toMatchObject({ issues: [expect.objectContaining({ path: 'speaker' })] });
    await expect(ingestor.ingest('bad tenant!', { text: 'hi' })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ingestor.message('other', 'm-1')).rejects.toBeInstanceOf(UnknownMessageError);
    expect(await events()).toBe(before);
    expect(() => new AdmissionPolicies({ default: { types: { milestone: { minSimilarity: 2 } } } })).toThrow(InvalidInputError);
  });
});
