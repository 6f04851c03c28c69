import { alignFrames, type EarlierStatement, frameKey, frameStatement, type FramedStatement, judgeFrame, planRestatement, valueShape } from './restatement';

const framed = (text: string, language: 'en' | 'ko' = 'en'): FramedStatement => {
  const f = frameStatement(text, language);
  if (!f) throw new Error(`not a statement: ${text}`);
  return f;
};
const align = (a: string, b: string, language: 'en' | 'ko' = 'en') => alignFrames(framed(a, language), framed(b, language));
const judge = (a: string, b: string, language: 'en' | 'ko' = 'en') => {
  const alignment = align(a, b, language);
  if (!alignment) throw new Error(`not aligned: ${a} / ${b}`);
  return judgeFrame(framed(a, language), framed(b, language), alignment);
};

describe('frame alignment', () => {
  it('finds the one stretch that changed, as written, with the frame around it', () => {
    expect(align('The staging database runs on db-07.internal.', 'The staging database runs on db-09.internal.')).toMatchObject({
      earlier: { value: 'db-07.internal' },
      next: { value: 'db-09.internal' },
      frame: 'staging database runs on …',
    });
    // Case, articles and end punctuation are not differences.
    expect(align('the head of the platform team is Marta Kowalski', 'The head of platform team is Daniel Osei.')).toMatchObject({
      earlier: { value: 'Marta Kowalski' },
      next: { value: 'Daniel Osei' },
    });
  });

  it('widens the values to whole phrases, so one frame keeps one shape', () => {
    expect(align('Quarterback is associated with the sport of American football.', 'Quarterback is associated with the sport of association football.')).toMatchObject({
      earlier: { value: 'American football' },
      next: { value: 'association football' },
    });
    expect(align('Our storage quota is 50 GB.', 'Our storage quota is 80 GB.')).toMatchObject({ earlier: { value: '50 GB' }, next: { value: '80 GB' } });
    expect(align('The checkout service listens on port 8443.', 'The checkout service listens on port 9443.')).toMatchObject({ next: { value: '9443' }, frame: 'checkout service listens on port …' });
    expect(align('Mia visited Kyoto in 2019.', 'Mia visited Osaka in 2019.')).toMatchObject({ next: { value: 'Osaka' }, frame: 'mia visited … in 2019' });
  });

  it('splits Korean particles and copulas off their words, so the value stands alone', () => {
    const a = align('회의실 예약 담당자는 김민수입니다.', '회의실 예약 담당자는 이지은입니다.', 'ko');
    expect(a).toMatchObject({ earlier: { value: '김민수' }, next: { value: '이지은' } });
    expect(align('나는 아침에 커피를 마셔요.', '나는 아침에 녹차를 마셔요.', 'ko')).toMatchObject({ earlier: { value: '커피' }, next: { value: '녹차' } });
  });

  it('does not align another holder, another qualifier, two changes, an insertion or the same words', () => {
    expect(align("Tom's laptop is a ThinkPad.", "Anna's laptop is a ThinkPad.")).toBeNull();
    // Another verb inside one value (the predicate was read too early, at "export"): two statements.
    expect(align('The nightly export of the billing tables takes 40 minutes on weekdays.', 'The nightly export of the billing tables is now 12 GB after compression.')).toBeNull();
    expect(align('In staging, the pool size is 4.', 'In production, the pool size is 4.')).toBeNull();
    expect(align('In staging, the pool size is 4.', 'In production, the pool size is 8.')).toBeNull();
    expect(align("The billing team's manager is Karen Lee.", "The search team's manager is Karen Lee.")).toBeNull();
    expect(align('Germany is located in the continent of Europe.', 'India is located in the continent of Asia.')).toBeNull();
    expect(align('The author of Our Mutual Friend is Charles Dickens.', 'The author of The Marriage of Figaro is Pierre Beaumarchais.')).toBeNull();
    expect(align('Alice speaks French.', 'Alice speaks French and German.')).toBeNull();
    expect(align('Alice speaks French.', 'alice speaks french')).toBeNull();
    expect(align('That is great!', 'That is awful!')).not.toBeNull();
    expect(align("That's great!", "That's awful!")).toBeNull(); // one token of frame says nothing
  });

  it('leaves a text longer than one statement alone', () => {
    expect(frameStatement(Array.from({ length: 60 }, (_, i) => `word${i}`).join(' '), 'en')).toBeNull();
  });

  it("makes the key from the subject as written and the predicate with the value's place marked", () => {
    const next = framed('The staging database runs on db-09.internal.');
    expect(frameKey(next, alignFrames(framed('The staging database runs on db-07.internal.'), next)!)).toEqual({ subject: 'The staging database', relation: 'runs on …' });
    const mia = framed('Mia visited Osaka in 2019.');
    expect(frameKey(mia, alignFrames(framed('Mia visited Kyoto in 2019.'), mia)!)).toEqual({ subject: 'Mia', relation: 'visited … in 2019' });
    const ko = framed('회의실 예약 담당자는 이지은입니다.', 'ko');
    expect(frameKey(ko, alignFrames(framed('회의실 예약 담당자는 김민수입니다.', 'ko'), ko)!)).toEqual({ subject: '회의실 예약 담당자', relation: '는 … 입니다' });
  });
});

describe('whether a frame holds one value', () => {
  it.each([
    ['The head of the platform team is Marta Kowalski.', 'The head of the platform team is Daniel Osei.', '"head"'],
    ['The owner of the billing repository is Priya Nair.', 'The owner of the billing repository is Tomás Ruiz.', 'relational noun phrase'],
    ["Walter's child is Ann.", "Walter's child is Bea.", 'relational noun phrase'],
    ['The type of music that Lou plays is jazz.', 'The type of music that Lou plays is punk.', 'relational noun phrase'],
    ['Goaltender is associated with the sport of ice hockey.', 'Goaltender is associated with the sport of pesäpallo.', '"the sport of"'],
    ['The staging database runs on db-07.internal.', 'The staging database runs on db-09.internal.', 'identifier'],
    ['The weekly sync happens at 10:30.', 'The weekly sync happens at 14:00.', 'number'],
    ['Tom is 34.', 'Tom is 35.', 'number'],
    ["Lena's favourite editor is Vim.", "Lena's favourite editor is Helix.", '"favourite"'],
    ['Elvis is married to Priscilla.', 'Elvis is married to Ann.', '"married to"'],
    ['Cédric is a citizen of France.', 'Cédric is a citizen of Malaysia.', '"citizen of"'],
    ['SteamOS was developed by Valve.', 'SteamOS was developed by ABB.', '"developed by"'],
    ['Motown is represented by the music label Universal.', 'Motown is represented by the music label Sony.', '"the music label"'],
    ['Our office is in Berlin.', 'Our office is in Munich.', 'a definite subject'],
    ['The project deadline is Friday.', 'The project deadline is Monday.', 'date'],
    ['I live in Lisbon.', 'I live in Porto.', '"lives in"'],
    ['The on-call rotation is managed by the SRE guild.', 'The on-call rotation is managed by the platform team.', '"managed by"'],
  ])('one: "%s" → "%s" (%s)', (a, b, why) => {
    const j = judge(a, b);
    expect(j.holds).toBe('one');
    expect(j.rule).toContain(why);
  });

  it.each([
    ['Alice speaks French.', 'Alice speaks German.', 'many'],
    ['The payment service depends on Redis.', 'The payment service depends on Kafka.', 'many'],
    ['Mia visited Kyoto in 2019.', 'Mia visited Osaka in 2019.', 'many'],
    ['Mia visited the city of Kyoto in 2019.', 'Mia visited the city of Kyoto in 2023.', 'many'],
    ['Sam has a dog.', 'Sam has a cat.', 'many'],
    ['Jin also plays the guitar.', 'Jin also plays the piano.', 'many'],
    ['Bob is allergic to peanuts.', 'Bob is allergic to shellfish.', 'unsure'],
    ['Nobuhiro Watsuki is famous for Rurouni Kenshin.', 'Nobuhiro Watsuki is famous for Bleach.', 'unsure'],
    ['The concert was amazing.', 'The concert was awful.', 'unsure'],
    ['Alice is in the chess club.', 'Alice is in the book club.', 'unsure'],
    ['Alice works with the designer Bob.', 'Alice works with the designer Carol.', 'unsure'],
    ['The office is closed on Mondays.', 'The office is closed on Sundays.', 'many'],
  ])('not one: "%s" → "%s" (%s)', (a, b, holds) => {
    expect(judge(a, b).holds).toBe(holds);
  });

  it("reads Korean copulas with a topic as one value, and a pronoun's or an event's as not", () => {
    expect(judge('회의실 예약 담당자는 김민수입니다.', '회의실 예약 담당자는 이지은입니다.', 'ko').holds).toBe('one');
    expect(judge('서버 포트는 8080입니다.', '서버 포트는 9090입니다.', 'ko').holds).toBe('one');
    expect(judge('나는 학생이야.', '나는 요리사야.', 'ko').holds).not.toBe('one');
    expect(judge('지수는 작년에 부산을 방문했다.', '지수는 작년에 제주를 방문했다.', 'ko').holds).toBe('many');
    expect(judge('민수는 영어를 합니다.', '민수는 일본어를 합니다.', 'ko').holds).not.toBe('one');
  });

  it("follows the tenant's own history: a frame replaced before holds one value", () => {
    const [a, b] = [framed('Alice speaks French.'), framed('Alice speaks German.')];
    const alignment = alignFrames(a, b)!;
    expect(judgeFrame(a, b, alignment).holds).toBe('many');
    expect(judgeFrame(a, b, alignment, true)).toMatchObject({ holds: 'one', rule: expect.stringContaining('replaced then') });
  });

  it('tells values with a shape of their own', () => {
    expect(valueShape('db-09.internal')).toBe('identifier');
    expect(valueShape('ops@example.com')).toBe('identifier');
    expect(valueShape('v2.3.1')).toBe('number');
    expect(valueShape('March 3')).toBe('number');
    expect(valueShape('Daniel Osei')).toBeNull();
  });
});

describe('planRestatement', () => {
  const at = (d: string) => new Date(`2026-${d}T00:00:00Z`);
  const earlier = (text: string, over: Partial<EarlierStatement> = {}): EarlierStatement => ({
    memoryId: 'm1',
    text,
    speaker: 'user',
    authority: 0,
    validFrom: at('03-01'),
    saidAt: at('03-01'),
    key: null,
    ...over,
  });
  const next = (text: string, over: Partial<Parameters<typeof planRestatement>[0]> = {}) => ({
    memoryId: 'm2',
    text,
    speaker: 'user',
    authority: 0,
    validFrom: at('04-01'),
    saidAt: at('04-01'),
    ...over,
  });

  it('retires what the new statement replaces from its valid time and keys the new one by the frame', () => {
    const plan = planRestatement(next('The head of the platform team is Daniel Osei.'), [earlier('The head of the platform team is Marta Kowalski.')]);
    expect(plan.key).toEqual({ subject: 'The head of the platform team', relation: 'is …', scope: {}, value: 'Daniel Osei', cardinality: 'many' });
    expect(plan.retire).toEqual([{ memoryId: 'm1', validFrom: at('04-01'), reason: expect.stringContaining('by memory m2: "Marta Kowalski"') }]);
    expect(plan.decisions).toEqual([expect.objectContaining({ action: 'replace', effect: 'retracted', text: 'The head of the platform team is Marta Kowalski.' })]);
  });

  it('takes a rule for later or a maybe for no restatement: "if the lead changes, the digest will go to Lars" replaces nothing', () => {
    const rule = planRestatement(next('If the team lead changes, the recipient of the weekly digest is Lars Eriksen.'), [earlier('The recipient of the weekly digest is Nadia Brooks.')]);
    expect(rule).toEqual({ key: null, validTo: null, retire: [], decisions: [] });
    expect(planRestatement(next('The recipient of the weekly digest might be Lars Eriksen.'), [earlier('The recipient of the weekly digest is Nadia Brooks.')]).retire).toEqual([]);
    // Said as what holds, the same frame replaces.
    expect(planRestatement(next('The recipient of the weekly digest is Lars Eriksen.'), [earlier('The recipient of the weekly digest is Nadia Brooks.')]).retire).toHaveLength(1);
  });

  it('withdraws a statement of the same start (both cannot have held), and fills history before a newer one', () => {
    expect(planRestatement(next('The port is 8080.', { validFrom: at('03-01') }), [earlier('The port is 8000.')]).decisions[0]!.effect).toBe('withdrawn');
    const late = planRestatement(next('The port is 7000.', { validFrom: at('02-01') }), [earlier('The port is 8000.')]);
    expect(late.retire).toEqual([]);
    expect(late.validTo).toEqual(at('03-01'));
    expect(late.decisions[0]!.effect).toBe('filled-history');
  });

  it('fills history before a memory said later (an older document, a chat imported out of order), and never retires it', () => {
    const imported = planRestatement(next('The port is 7000.', { validFrom: at('02-01'), saidAt: at('02-01') }), [earlier('The port is 8000.', { saidAt: at('05-01') })]);
    expect(imported.retire).toEqual([]);
    expect(imported.validTo).toEqual(at('03-01'));
    expect(imported.decisions[0]).toMatchObject({ action: 'replace', effect: 'filled-history' });
  });

  it('keeps both on every guard: another speaker\'s "my", the assistant, a higher authority, a memory said since', () => {
    expect(planRestatement(next('My desk is on the 5th floor.'), [earlier('My desk is on the 3rd floor.', { speaker: 'assistant' })]).decisions).toEqual([]);
    const guarded = [
      planRestatement(next('The port is 8080.', { speaker: 'assistant' }), [earlier('The port is 8000.')]),
      planRestatement(next('The port is 8080.'), [earlier('The port is 8000.', { authority: 3 })]),
      planRestatement(next('The port is 8080.'), [earlier('The port is 8000.', { saidAt: at('05-01') })]),
    ];
    for (const plan of guarded) {
      expect(plan.retire).toEqual([]);
      expect(plan.key).toBeNull();
      expect(plan.decisions[0]).toMatchObject({ action: 'keep-both', holds: 'one', effect: 'kept' });
    }
    // The assistant restating its own statement does replace it.
    expect(planRestatement(next('The port is 8080.', { speaker: 'assistant' }), [earlier('The port is 8000.', { speaker: 'assistant' })]).retire).toHaveLength(1);
  });

  it('writes into the frame key the earlier statement is already in', () => {
    const key = { subject: 'The checkout service', relation: 'listens on port …', scope: {} };
    const plan = planRestatement(next('The checkout service listens on port 9443.'), [earlier('The checkout service listens on port 8443.', { key })]);
    expect(plan.key).toEqual({ ...key, value: '9443', cardinality: 'many' });
    expect(plan.retire).toHaveLength(1);
    expect(plan.decisions[0]!.rule).toContain('replaced then');
  });
});
