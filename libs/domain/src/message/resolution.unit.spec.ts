import { detectLanguage } from './triage';
import { analyzeStatement, compareStatements, resolveStatement, searchTermsOf, slotTermsOf, statementSized, stem } from './resolution';

const compare = (earlier: string, next: string) => compareStatements(analyzeStatement(next, detectLanguage(next)), { memoryId: 'm', text: earlier, relation: null, validFrom: new Date(0) });
const replaces = (earlier: string, next: string): boolean => {
  const r = compare(earlier, next);
  return r !== null && r.action !== 'keep-both';
};

describe('resolution: a change said in other words', () => {
  // One pair a kind, in words of this test's own: homes, emails, employers, preferences, ports,
  // managers, cars, phone numbers, diets, tools, timeouts, counts, schools, renamed functions.
  it.each([
    ['I live in Lisbon.', 'We moved to Porto last summer.'],
    ['My personal email is tom@mailbox.org.', 'Send anything personal to tom.w@proton.me now.'],
    ['I work at Initech.', 'I left Initech and joined Hooli.'],
    ['I prefer window seats.', 'From now on I want aisle seats instead.'],
    ['The auth service listens on port 4000.', 'We moved the auth service to port 4100.'],
    ['My manager is Priya.', 'I report to Tomas now.'],
    ['My car is a red Golf.', 'I replaced the Golf with a Toyota Corolla.'],
    ['You can text me at 010-3030-4040.', 'My phone changed to 010-5050-6060.'],
    ['I am vegetarian.', "I'm vegan now."],
    ['We build with Gradle.', 'We switched from Gradle to Bazel.'],
    ['Session timeout: 15 minutes.', 'The session timeout was lowered to 5 minutes.'],
    ['I have two cats.', 'We adopted another cat, so three cats now.'],
    ['My daughter goes to Pine Elementary.', 'My daughter switched to Lakeside School.'],
    ['The export helper is called dumpRows.', 'We renamed dumpRows to exportRows.'],
    ['나는 부산에 살아.', '이번에 서울로 이사했어.'],
    ['회의는 3시야.', '회의 시간이 4시로 바뀌었어.'],
  ])('%s → %s', (earlier, next) => {
    expect(replaces(earlier, next)).toBe(true);
  });

  it('says why, with the slot, the values and the cue it rested on', () => {
    const r = compare('The request timeout is 30 seconds.', 'We raised the request timeout to 90 seconds.')!;
    expect(r.action).toBe('supersede');
    expect(r.scores).toMatchObject({ valueKind: 'quantity', oldValue: '30 seconds', newValue: '90 seconds' });
    expect(r.rule).toMatch(/raised/);
  });

  it('corrects what turns out never to have held, and retracts what has ended', () => {
    expect(compare('I am allergic to shellfish.', "Turns out I'm not allergic to shellfish, the test was wrong.")?.action).toBe('correct');
    expect(compare('I eat meat.', 'I no longer eat meat.')?.action).toBe('retract');
  });
});

describe('resolution: look-alikes stay apart', () => {
  it.each([
    ['My sister works at Naver.', 'I work at Kakao.'],
    ['I like jazz.', 'I like hip hop too.'],
    ['The staging API listens on port 8081.', 'The production API listens on port 443.'],
    ["My husband's phone is 010-1111-2222.", 'My phone is 010-3333-4444.'],
    ['I have a parrot named Kiwi.', 'I also have a turtle named Shell.'],
    ['My work phone is 02-555-1234.', 'My home phone is 02-555-9876.'],
    ['The read timeout is 10 seconds.', 'The write timeout is 20 seconds.'],
    ['Numpy is pinned to 1.26.4.', 'Pandas is pinned to 2.2.0.'],
    ['I work at Kakao.', 'I work from home on Fridays.'],
    ['I live in Seoul.', 'I moved the meeting to Friday.'],
    ['The build takes 10 minutes.', 'The test suite takes 25 minutes.'],
    ['우리 형은 대전에 살아.', '나는 광주에 살아.'],
    ["Minji Kim's phone number is now 010-1234-5678.", "Jisoo Lee's phone number is now 010-8765-4321."],
    ['The search database moved to host db-01.internal.', 'The checkout database moved to host db-01.internal.'],
    ['The auth database moved to host db-35.internal.', 'The catalog database moved to host db-17.internal.'],
    ['I moved to Berlin this month.', 'The first snow of the year fell on Berlin today.'],
    [
      'Our retro went better than expected. The weather was awful, so we stayed in. Honestly the hardest part is agreeing on what done means.',
      'The new café does a decent flat white. Our retro went better than expected; people actually said what bothered them. The weather was awful.',
    ],
  ])('%s / %s', (earlier, next) => {
    expect(replaces(earlier, next)).toBe(false);
  });

  it('keeps both, and says it was unsure, when a slot and a value agree but nothing says it changed', () => {
    const r = compare('I have a dog named Max.', 'I also have a cat named Luna.');
    expect(r?.action).toBe('keep-both');
    expect(r?.rule).toMatch(/addition/);
  });
});

describe('resolution over earlier memories', () => {
  const at = (iso: string) => new Date(iso);
  const earlier = (text: string, said: string, validFrom = said) => ({ memoryId: text, text, relation: null, validFrom: at(validFrom), saidAt: at(said) });

  it('never retires a memory said at the statement\u2019s time or later, and retires from the statement\u2019s valid time', () => {
    const [later] = resolveStatement('My number changed to 555-0100.', 'en', { validFrom: at('2026-03-01'), saidAt: at('2026-03-01') }, [earlier('Call me on 555-0199.', '2026-04-01')]);
    expect(later!.action).toBe('keep-both');
    const [r] = resolveStatement('My number changed to 555-0100.', 'en', { validFrom: at('2026-03-01'), saidAt: at('2026-03-01') }, [earlier('Call me on 555-0199.', '2026-02-01')]);
    expect(r).toMatchObject({ action: 'supersede', retireFrom: at('2026-03-01') });
  });

  it('retires from the time of saying when the change is dated before the memory began, and a correction from its start', () => {
    const [r] = resolveStatement('Our third child was born last week, so three kids now.', 'en', { validFrom: at('2026-03-01'), saidAt: at('2026-03-08') }, [
      earlier('I have two kids.', '2026-03-05'),
    ]);
    expect(r).toMatchObject({ action: 'supersede', retireFrom: at('2026-03-08') });
    const [c] = resolveStatement("Actually I'm not allergic to cats, that was a mistake.", 'en', { validFrom: at('2026-03-08'), saidAt: at('2026-03-08') }, [
      earlier("I'm allergic to cats.", '2026-03-05'),
    ]);
    expect(c).toMatchObject({ action: 'correct', retireFrom: at('2026-03-05') });
  });
});

describe('the words a memory is found by', () => {
  it('stems lightly, so that a word and its forms meet', () => {
    expect(stem('nursing')).toBe(stem('nurse'));
    expect(stem('lattes')).toBe(stem('latte'));
    expect(stem('집은')).toBe('집');
    expect(stem('회의')).toBe('회의');
  });

  it('names the slots a statement speaks of as a question asks for them, and a Korean word without its particle', () => {
    expect(searchTermsOf('These days I teach high-school biology.', 'en')).toEqual(expect.arrayContaining(['job']));
    expect(searchTermsOf('점심시간이 12시 30분으로 바뀌었어.', 'ko')).toEqual(expect.arrayContaining(['점심시간']));
    expect(searchTermsOf('The weather was lovely.', 'en')).toEqual([]);
  });

  it("gives a replaced memory's slot without its value, for the statement that took it over", () => {
    const terms = slotTermsOf('We build with Gradle.', 'en');
    expect(terms).toContain('build');
    expect(terms).not.toContain('gradle');
  });
});

describe('resolution: percentages and dates are values of their own shape', () => {
  it('reads a percentage at the end of a clause as one quantity in %', () => {
    const st = analyzeStatement('Line coverage of the parser package stands at 65%.', 'en');
    expect(st.values).toEqual([expect.objectContaining({ kind: 'quantity', norm: '65', unit: '%' })]);
    const r = compare('Line coverage of the parser package stands at 65%.', 'Line coverage of the parser package now stands at 81%.');
    expect(r).toMatchObject({ action: 'supersede', scores: { valueKind: 'quantity', oldValue: '65%', newValue: '81%' } });
  });

  it('reads a date as one value, not as two numbers', () => {
    const st = analyzeStatement('The beta freeze is on October 3, 2025.', 'en');
    expect(st.values).toEqual([expect.objectContaining({ kind: 'date', norm: 'october 3 2025' })]);
    expect(compare('The beta freeze is on October 3, 2025.', 'The beta freeze moved to October 10, 2025.')).toMatchObject({
      action: 'supersede',
      scores: { valueKind: 'date', oldValue: 'October 3, 2025', newValue: 'October 10, 2025' },
    });
    // The same day written another way is the same value.
    expect(analyzeStatement('We ship on 3rd October.', 'en').values[0]).toMatchObject({ kind: 'date', norm: '3 october' });
  });
});

describe('resolution: names', () => {
  it('reads the speaker\u2019s "I", "I\u2019d", "I\u2019m" mid-sentence as no name, and keeps the name after it', () => {
    const names = (t: string) =>
      analyzeStatement(t, 'en')
        .values.filter((v) => v.kind === 'name')
        .map((v) => v.text);
    expect(names("The disk filled up, so now I'd like to move the archive to Glacier.")).toEqual(['Glacier']);
    expect(names("Hello there, I'm Priya and I've joined the Lisbon office.")).toEqual(['Priya', 'Lisbon']);
  });
});

describe('resolution: slots that one class of words covers, and titles before names', () => {
  it('keeps apart two slots named by different words of one class, each with a qualifier of its own', () => {
    // "manager" and "lead" are words of one class, but a package manager is no team lead.
    expect(compare('The project lead is Amara Singh.', 'We switched again: the asset manager is Kinto now.')).toBeNull();
    expect(compare('The design lead is Ravi Iyer.', 'We switched, the build manager is Corvid now.')).toBeNull();
    // The same class with no qualifier apart is still one slot.
    expect(replaces('My manager is Priya.', 'I report to Tomas now.')).toBe(true);
  });

  it("reads a title's period as no sentence end: the name stops at the real one, and a two-sentence root is compared", () => {
    expect(statementSized('The landlord is Mrs. Ito. She decides everything.')).toBe(true);
    const r = compare('Our landlord is Mrs. Ito. She decides everything.', 'Mr. Ueda is our new landlord.');
    expect(r).toMatchObject({ action: 'supersede', scores: { oldValue: 'Mrs. Ito', newValue: 'Mr. Ueda' } });
  });
});
