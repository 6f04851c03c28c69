import { isHypothetical } from './mood';
import { analyzeStatement, compareStatements, contradictionsAmong } from './resolution';

describe('what only might be', () => {
  it('finds conditions, maybes, plans, wishes and hearsay in English and Korean', () => {
    for (const text of [
      'If the team lead changes, the weekly digest will go to Lars.',
      'We might move to Denver next year.',
      'I could one day switch to a standing desk.',
      "There's talk that Marco will take over the rotation.",
      'We are planning to switch to pnpm.',
      'Should the budget grow, Dev will own it.',
    ])
      expect({ text, hypothetical: isHypothetical(text, 'en') }).toEqual({ text, hypothetical: true });
    for (const text of ['팀장이 바뀌면 보고서는 라스에게 가.', '내년에 부산으로 이사할지도 몰라.', '회사를 옮길까 고민 중이야.'])
      expect({ text, hypothetical: isHypothetical(text, 'ko') }).toEqual({ text, hypothetical: true });
  });

  it('leaves statements of what holds alone', () => {
    for (const text of ['We moved to Denver last week.', 'Marco took over the rotation.', 'My email is dana@newco.example.'])
      expect({ text, hypothetical: isHypothetical(text, 'en') }).toEqual({ text, hypothetical: false });
    for (const text of ['나는 라면을 좋아해.', '부산으로 이사했어.']) expect({ text, hypothetical: isHypothetical(text, 'ko') }).toEqual({ text, hypothetical: false });
  });

  it('never lets a condition or a maybe retire an earlier memory, however like it it reads', () => {
    const earlier = { memoryId: 'm1', text: 'We live in Austin.', relation: null, validFrom: new Date('2026-01-01') };
    expect(compareStatements(analyzeStatement('We moved to Denver.', 'en'), earlier)?.action).toBe('supersede');
    expect(compareStatements(analyzeStatement('We might move to Denver next year.', 'en'), earlier)).toBeNull();
    expect(compareStatements(analyzeStatement('If the lease ends, we will move to Denver.', 'en'), earlier)).toBeNull();
  });
});

it('reads "going to bed" as going to bed', () => {
  expect(isHypothetical("I've been going to bed at 10pm lately.", 'en')).toBe(false);
});

describe('an event stays true', () => {
  it('keeps a dated event beside a later general claim or state that contradicts it', () => {
    const event = { memoryId: 'm1', text: "I skipped Tuesday's standup to finish the release.", relation: null, validFrom: new Date('2026-11-10') };
    expect(compareStatements(analyzeStatement("I've never skipped a standup.", 'en'), event)).toMatchObject({ action: 'keep-both', rule: expect.stringMatching(/event/) });
    const ko = { memoryId: 'm2', text: '어제 아침 회의를 건너뛰었어.', relation: null, validFrom: new Date('2026-11-10') };
    expect(compareStatements(analyzeStatement('나는 아침 회의를 한 번도 건너뛴 적 없어.', 'ko'), ko)?.action ?? 'kept apart').not.toMatch(/supersede|correct|retract/);
  });

  it('pairs memories shown together that contradict each other and were both kept, the later against the earlier', () => {
    const pairs = contradictionsAmong([
      { memoryId: 'b', text: "I've never skipped a standup.", speaker: 'user', saidAt: new Date('2026-11-20') },
      { memoryId: 'a', text: "I skipped Tuesday's standup to finish the release.", speaker: 'user', saidAt: new Date('2026-11-10') },
      { memoryId: 'c', text: 'The nightly backup runs at 02:00.', speaker: 'user', saidAt: new Date('2026-11-21') },
      { memoryId: 'd', text: "You've never skipped a standup.", speaker: 'assistant', saidAt: new Date('2026-11-22') },
    ]);
    expect(pairs).toEqual([{ earlier: 'a', later: 'b', rule: expect.stringMatching(/event/) }]);
  });

  it('still lets a change of a state told as an event be changed: a move is no event that stays', () => {
    const moved = { memoryId: 'm1', text: 'I moved to Denver last week.', relation: null, validFrom: new Date('2026-11-10') };
    expect(compareStatements(analyzeStatement('We moved to Boulder yesterday.', 'en'), moved)?.action).toBe('supersede');
  });
});
