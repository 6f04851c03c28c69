import { dependencyOf, ruleOf } from './dependencies';

describe('a rule for later', () => {
  it('reads the premise and the consequence of "if/when/once/whenever X changes, Y will be Z", in any wording of the consequence', () => {
    expect(ruleOf('If the team lead changes, the weekly digest will go to Lars Eriksen.', 'en')).toEqual({
      premise: 'the team lead',
      premiseWords: ['team', 'lead'],
      frame: 'weekly digest',
      frameWords: ['weekly', 'digest'],
      value: 'Lars Eriksen',
      whenever: false,
    });
    expect(ruleOf('Once our landlord changes, the rent would be 950 euros.', 'en')).toMatchObject({ premiseWords: ['landlord'], frame: 'rent', value: '950 euros' });
    expect(ruleOf('Whenever the release manager changes, the changelog owner will become the new release manager.', 'en')).toMatchObject({ whenever: true, frame: 'changelog owner' });
    expect(ruleOf('Should the office manager leave, the key holder is going to be Ines.', 'en')).toMatchObject({ premiseWords: ['offic', 'manager'], value: 'Ines' });
    // A new holder said as "a new X": the premise is X; a consequence in the present tense.
    expect(ruleOf('When we get a new property manager, the maintenance contact becomes Hollis & Reed.', 'en')).toMatchObject({
      premiseWords: ['property', 'manager'],
      frame: 'maintenance contact',
      value: 'Hollis & Reed',
    });
    expect(ruleOf('Once there is a new treasurer, the signing account goes to Westbank 1187.', 'en')).toMatchObject({ premiseWords: ['treasurer'], value: 'Westbank 1187' });
  });

  it('reads more ways to say the premise ("in case", "after", "is ever replaced", "a change of …") and the consequence ("should go to", the value first)', () => {
    expect(ruleOf('In case the studio manager changes, the supply order should go to Lena Park.', 'en')).toMatchObject({
      premiseWords: ['studio', 'manager'],
      frame: 'supply order',
      value: 'Lena Park',
    });
    expect(ruleOf('If we ever get a new caretaker, the boiler service should go to Warmline 305.', 'en')).toMatchObject({
      premiseWords: ['caretaker'],
      frame: 'boiler service',
      value: 'Warmline 305',
    });
    expect(ruleOf('After the coach changes, the match bookings will move to Ravi Shah.', 'en')).toMatchObject({ premiseWords: ['coach'], frame: 'match bookings', value: 'Ravi Shah' });
    expect(ruleOf('If the site foreman is ever replaced, safety sign-offs go to Olu Bello.', 'en')).toMatchObject({ premiseWords: ['site', 'foreman'], frame: 'safety sign-offs', value: 'Olu Bello' });
    expect(ruleOf('If there is a change of editor, the style guide owner becomes June Abe.', 'en')).toMatchObject({ premiseWords: ['editor'], frame: 'style guide owner', value: 'June Abe' });
    expect(ruleOf('If our treasurer leaves, Mara Quinn will take over the petty cash.', 'en')).toMatchObject({ premiseWords: ['treasurer'], frame: 'petty cash', value: 'Mara Quinn' });
    expect(ruleOf('관리인이 바뀌면 택배 수령은 박지훈에게 갈 거야.', 'ko')).toMatchObject({ premiseWords: ['관리인'], frame: '택배 수령', value: '박지훈' });
  });

  it('takes no maybe, no statement of what holds and no other kind of condition for a rule', () => {
    for (const text of [
      'If our plans change, we could switch the office city to Vilnius.',
      'If we ever move things around, the office city might become Leuven.',
      'The weekly digest goes to Nadia Brooks.',
      'If it rains tomorrow, we will stay in.',
      'When I moved to Busan, I was happy.',
      'After the meeting, the notes go to Dana.',
    ])
      expect({ text, rule: ruleOf(text, 'en') }).toEqual({ text, rule: null });
  });

  it('reads a Korean rule', () => {
    expect(ruleOf('팀장이 바뀌면 주간 보고서는 라스가 받게 될 거야.', 'ko')).toMatchObject({ premiseWords: ['팀장'], frame: '주간 보고서', value: '라스' });
  });
});

describe('a dependency', () => {
  it('reads what a statement hangs on: a role or a person, by the cues that say so', () => {
    expect(dependencyOf('The weekly digest goes to Nadia — Omar assigned it; if the team lead changes, this assignment would change.', 'en')).toMatchObject({
      on: 'team lead',
      onWords: ['team', 'lead'],
    });
    expect(dependencyOf('Omar made Pia our code reviewer; a new team lead would pick again.', 'en')).toMatchObject({ on: 'team lead' });
    expect(dependencyOf('We use the blue invoice template on Dana Wu’s say-so.', 'en')).toMatchObject({ on: 'Dana Wu' });
    expect(dependencyOf('The standup stays at 9:30 while Farid is our scrum master.', 'en')).toMatchObject({ on: 'scrum master' });
    expect(dependencyOf('팀장이 바뀌면 이것도 바뀔 거야.', 'ko')).toMatchObject({ onWords: ['팀장'] });
  });

  it('finds none in a plain statement', () => {
    expect(dependencyOf('Omar made Pia our code reviewer.', 'en')).toBeNull();
    expect(dependencyOf('The team lead is Omar.', 'en')).toBeNull();
  });
});
