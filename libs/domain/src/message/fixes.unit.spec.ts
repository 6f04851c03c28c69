import { extractCandidates } from './extraction';
import { fixOf } from './fixes';
import { analyzeStatement, compareStatements } from './resolution';
import { triageMessage } from './triage';

const AT = new Date('2026-12-01T12:00:00Z');
const extract = (text: string) => extractCandidates({ text, speaker: 'user', at: AT, triage: triageMessage(text), cues: {} });
const triple = (text: string) => extract(text).map((c) => ({ relation: c.relation, value: c.value, correction: c.correction ?? false }));

describe('fixes said in plain words', () => {
  it('finds a fix by a cue that says so, in English and Korean, and the value it replaces where it is named', () => {
    expect(fixOf('Sorry, I made a typo: my email is jane@newco.com, not jane@newco.io.', 'en')).toEqual({ cue: 'typo', replaced: 'jane@newco.io' });
    expect(fixOf('Scratch that, my dentist is Dr. Lee.', 'en')).toEqual({ cue: 'Scratch that', replaced: null });
    expect(fixOf('I misspoke earlier: the standup is at 9:30.', 'en')).toMatchObject({ cue: 'misspoke' });
    expect(fixOf('잘못 말했어, 부산에 살아.', 'ko')).toEqual({ cue: '잘못 말', replaced: null });
    expect(fixOf('정정할게요. 제 번호는 010-1234-5678이에요.', 'ko')).toMatchObject({ cue: '정정' });
  });

  it('reads the right value set beside the wrong one as a fix: "Tacoma, not Seattle", "not X but Y", "서울이 아니라 부산"', () => {
    expect(fixOf('Sorry, I actually live in Tacoma, not Seattle.', 'en')).toEqual({ cue: 'not Seattle', replaced: 'Seattle' });
    expect(fixOf('The review is not on Tuesday but on Thursday.', 'en')).toMatchObject({ replaced: 'on Tuesday' });
    expect(fixOf('나는 서울이 아니라 부산에 살아.', 'ko')).toEqual({ cue: '서울이 아니라', replaced: '서울' });
  });

  it('takes no negation, retraction or comparison for a fix', () => {
    for (const text of ['I do not live in Seattle anymore.', "I don't drink coffee.", "It's not only fast but cheap.", 'I walk instead of driving.', 'I moved to Busan last week.']) {
      expect({ text, fix: fixOf(text, 'en') }).toEqual({ text, fix: null });
    }
    expect(fixOf('나는 더 이상 서울에 살지 않아.', 'ko')).toBeNull();
  });

  it('extracts the fact a fix states, without its wrong value, marked as a correction', () => {
    expect(triple('Sorry, I made a typo: my email is jane@newco.com, not jane@newco.io.')).toEqual([{ relation: 'email', value: 'jane@newco.com', correction: true }]);
    expect(triple('Sorry, I actually live in Tacoma, not Seattle.')).toEqual([{ relation: 'lives in', value: 'Tacoma', correction: true }]);
    expect(triple('Scratch that, my dentist is Dr. Lee.')).toEqual([{ relation: 'dentist', value: 'Dr. Lee', correction: true }]);
    expect(triple('I live not in Seattle but in Tacoma.')).toEqual([{ relation: 'lives in', value: 'Tacoma', correction: true }]);
    expect(triple('나는 서울이 아니라 부산에 살아.')).toEqual([{ relation: 'lives in', value: 'Busan', correction: true }]);
    expect(triple('잘못 말했어, 나 부산에 살아.')).toEqual([{ relation: 'lives in', value: 'Busan', correction: true }]);
    // No fix: an update stays an update.
    expect(triple('I moved to Tacoma last week.')).toEqual([{ relation: 'lives in', value: 'Tacoma', correction: false }]);
  });

  it('makes resolution correct the earlier memory a prose fix puts right', () => {
    const next = analyzeStatement('Oops, typo: the shared drive folder is Q3-final, not Q3-draft.', 'en');
    expect(next.change).toEqual({ kind: 'correction', cue: 'typo' });
    const r = compareStatements(next, { memoryId: 'm1', text: 'The shared drive folder is Q3-draft.', relation: null, validFrom: AT });
    expect(r).toMatchObject({ action: 'correct' });
  });
});

describe('a change of who holds a role, in words no rule was written for', () => {
  const compare = (earlier: string, next: string, language: 'en' | 'ko' = 'en') =>
    compareStatements(analyzeStatement(next, language), { memoryId: 'm1', text: earlier, relation: null, validFrom: AT })?.action ?? null;

  it('reads a role taken over, handed on, stepped into or succeeded to as a change of its holder', () => {
    expect(compare('Priya Nair is our team lead.', 'Tomasz Wolski has taken over as our team lead.')).toBe('supersede');
    expect(compare('Ines runs the on-call rotation.', 'Ines handed the on-call rotation to Marco yesterday.')).toBe('supersede');
    expect(compare('Omar is our release captain.', 'Lena stepped in as release captain this sprint.')).toBe('supersede');
    expect(compare('Hae-won owns the quarterly budget.', 'Dev took over the quarterly budget from Hae-won.')).toBe('supersede');
    expect(compare('우리 팀장은 김민수야.', '이제 박지훈이 팀장을 맡았어.', 'ko')).toBe('supersede');
    expect(compare('Lucia was appointed treasurer of the club.', 'Ben succeeded Lucia as treasurer of the club.')).toBe('supersede');
  });

  it('keeps apart what shares only a person: handing over a thing is no change of a role they hold', () => {
    expect(compare('Ines runs the on-call rotation.', 'Ines handed the quarterly report to Marco.')).toBeNull();
    expect(compare('Priya Nair is our team lead.', 'Priya Nair took over the hiring plan.')).toBeNull();
  });
});
