import { InvalidInputError, ManualClock } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { actingAs } from './actor';
import { type LedgerHandle, ledgerOn } from './create-ledger';

/** The audit through the real write path and read models: what the ledger believed on Monday, and what changed by Friday. */
describe.each(testBackends())('audit on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const clock = new ManualClock(new Date('2026-03-01T09:00:00Z'));
  const day = () => clock.advance(86_400_000);
  let monday: string;
  let friday: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
    const { ledger } = handle;
    ids.berlin = (await ledger.assert('a1', { subject: 'Ada', relation: 'lives in', value: 'Berlin' })).memoryId;
    ids.french = (await ledger.assert('a1', { subject: 'Ada', relation: 'speaks', value: 'French', cardinality: 'many' })).memoryId;
    ids.note = (await ledger.assert('a1', { text: 'The quarterly review moved to the big room.' })).memoryId;
    await ledger.assert('a2', { subject: 'Ada', relation: 'lives in', value: 'Oslo' }); // another tenant
    day();
    monday = clock.now().toISOString();
    day();
    ids.lisbon = (await actingAs('key-ops', () => ledger.assert('a1', { subject: 'Ada', relation: 'lives in', value: 'Lisbon', batch: 'move-2026' }))).memoryId;
    await ledger.quarantine('a1', { memoryId: ids.note, reason: 'unverified' });
    ids.tea = (await ledger.assert('a1', { subject: 'Bo', relation: 'likes', value: 'tea' })).memoryId;
    day();
    friday = clock.now().toISOString();
  });
  afterAll(() => database.close());

  it('shows what the ledger believed at a moment, for the tenant or one subject', async () => {
    const atMonday = await handle.audit.believed('a1', { knownAt: monday });
    expect(atMonday).toMatchObject({ knownAt: new Date(monday).toISOString(), validAt: new Date(monday).toISOString(), subject: null, truncated: false });
    expect(atMonday.memories.map((m) => m.value ?? m.text)).toEqual(['Berlin', 'French', 'The quarterly review moved to the big room.']);
    const atFriday = await handle.audit.believed('a1', { knownAt: friday });
    expect(atFriday.memories.map((m) => [m.subject, m.relation, m.value])).toEqual([
      ['Ada', 'lives in', 'Lisbon'],
      ['Ada', 'speaks', 'French'],
      ['Bo', 'likes', 'tea'],
    ]);
    // Known on Friday, true on Monday: Lisbon only holds from its own valid time.
    const knownFridayTrueMonday = await handle.audit.believed('a1', { knownAt: friday, validAt: monday });
    expect(knownFridayTrueMonday.memories.map((m) => m.value)).toEqual(['Berlin', 'French']);
    const ada = await handle.audit.believed('a1', { knownAt: friday, subject: 'ada' });
    expect(ada.memories.map((m) => m.value)).toEqual(['Lisbon', 'French']);
    const one = await handle.audit.believed('a1', { knownAt: friday, limit: 1 });
    expect(one).toMatchObject({ truncated: true, memories: [expect.objectContaining({ value: 'Lisbon' })] });
  });

  it('lists what changed between two moments, each change with its events, batch and actor', async () => {
    const diff = await handle.audit.changes('a1', { from: monday, to: friday });
    expect(diff.changes.map((c) => [c.subject, c.relation, c.before.map((v) => v.value ?? v.text), c.after.map((v) => v.value)])).toEqual(
      expect.arrayContaining([
        ['Ada', 'lives in', ['Berlin'], ['Lisbon']],
        ['Bo', 'likes', [], ['tea']],
        [null, null, ['The quarterly review moved to the big room.'], []],
      ]),
    );
    expect(diff.changes).toHaveLength(3); // French did not change, and a2's Oslo is another tenant's
    const move = diff.changes.find((c) => c.relation === 'lives in')!;
    expect(move.events.length).toBeGreaterThan(0);
    expect(move.events).toContainEqual(expect.objectContaining({ type: 'FactAsserted', memoryId: ids.lisbon, batch: 'move-2026', actor: 'key-ops' }));
    for (const e of move.events) expect(e.recordedAt > monday && e.recordedAt <= friday).toBe(true);
    const note = diff.changes.find((c) => c.subject === null)!;
    expect(note.events.map((e) => e.type)).toEqual(['MemoryQuarantined']);
    // Nothing changed between Friday and later.
    expect((await handle.audit.changes('a1', { from: friday, to: new Date(Date.parse(friday) + 3_600_000).toISOString() })).changes).toEqual([]);
  });

  it('refuses a diff whose end is not after its start, and a moment that is not a date, naming the field', async () => {
    await expect(handle.audit.changes('a1', { from: friday, to: monday })).rejects.toMatchObject({ issues: [expect.objectContaining({ path: 'to' })] });
    await expect(handle.audit.believed('a1', { knownAt: 'last monday' })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(handle.audit.changes('a1', { from: monday } as never)).rejects.toMatchObject({ issues: [expect.objectContaining({ path: 'to' })] });
  });
});
