import { asksOverTime, overTimeCue } from './over-time';

describe('a question over time', () => {
  it('finds a value asked for over time, in English', () => {
    for (const question of [
      "Name every laptop I've owned.",
      'List all the cities we have lived in, oldest first.',
      'Which editors have I used?',
      'What was our deploy target, earliest first?',
      'Give me our hosting providers from oldest to newest.',
      'Show the office addresses newest back to oldest.',
      'Put the team leads in chronological order.',
      'What did we use to call the staging cluster?',
      'I used to drink a lot of coffee, right?',
      'What is the history of our on-call rota?',
      'How has my running pace changed?',
      'How did the release cadence change over time?',
      'What did we run CI on before that?',
      'Which host did the wiki live on before we moved it?',
      'What was the team name before?',
      'What was my previous job?',
      'Where did I live in the past?',
      'Which database did we pick originally?',
      'What changed in the deploy process?',
      'What coaches have I had so far?',
    ])
      expect({ question, overTime: asksOverTime(question) }).toEqual({ question, overTime: true });
  });

  it('finds a value asked for over time, in Korean', () => {
    for (const question of [
      '지금까지 쓴 에디터를 알려줘.',
      '예전에 살던 동네가 어디였지?',
      '이전에 쓰던 배포 도구가 뭐였어?',
      '처음부터 지금까지 팀장을 순서대로 알려줘.',
      '우리 서버 호스팅의 변천을 정리해줘.',
      '팀 이름이 바뀐 순서를 알려줘.',
      '달리기 기록이 어떻게 변했어?',
      '내가 썼던 노트북 전부 알려줘.',
      '모든 도시 중에 내가 살았던 곳을 알려줘.',
    ])
      expect({ question, overTime: asksOverTime(question) }).toEqual({ question, overTime: true });
  });

  it('leaves a question of what holds now alone, and words that only look like a cue', () => {
    for (const question of [
      "What's our CI runner?",
      'Who leads the platform team now?',
      'Where does the staging cluster run?',
      'Tell me what you remember about the release process.',
      "I'm used to the new keyboard now.",
      'Remind me before the meeting starts.',
      "What's the first step of the checklist?",
      'I need the token in order to deploy.',
      'List the steps of the checklist in order.',
      'Have I ever been to Porto?',
      'Which came first: the audit or the launch?',
      'What did Dana do the week before May 3?',
      'I love reading history books.',
      'What are all the tools we use?',
    ])
      expect({ question, overTime: asksOverTime(question) }).toEqual({ question, overTime: false });
    for (const question of ['지금 빌드 도구가 뭐야?', '팀장이 누구야?', '사무실 이전 날짜가 언제야?', '우리 다 같이 점심 먹을까?']) {
      expect({ question, overTime: asksOverTime(question) }).toEqual({ question, overTime: false });
    }
  });

  it('names the words that ask it', () => {
    expect(overTimeCue('And before that?')).toBe('before that');
    expect(overTimeCue('Which editors have I used?')).toBe('Which editors have I used');
    expect(overTimeCue('지금까지 쓴 에디터를 알려줘.')).toBe('지금까지');
    expect(overTimeCue("What's our CI runner?")).toBeNull();
  });
});
