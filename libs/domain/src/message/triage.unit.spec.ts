import { detectLanguage, isQuestion, splitSentences, topicOf, triageMessage } from './triage';

const kindOf = (text: string) => triageMessage(text).kind;

describe('triage: English questions are asking, in many forms', () => {
  it.each([
    'How do I reset my password?',
    'Where do I live?',
    'where do I live',
    'what is my email',
    "What's my email address",
    'Whats my email?',
    'Who am I',
    'When did I move to Daejeon',
    'Which city do I live in',
    'Which port does the payment service use',
    'what kind of music do I like',
    'How long have I worked at Kakao',
    'How old am I',
    'Why did I leave Seoul',
    'Who lives in Busan',
    'what happened yesterday',
    'What about my phone number',
    'How about my address',
    'What if I moved to Busan',
    'Do you remember my email?',
    'do you remember my email',
    'Do you know where I work',
    'You know where I work?',
    'Can you tell me my phone number',
    'Could you remind me of my address',
    'Would you check my email',
    'Is it set to 8080',
    'Is Minji in Seoul',
    'Did I tell you my birthday',
    'Have I mentioned my job',
    'Are we meeting tomorrow',
    'remind me where I work',
    'Remind me what my email is.',
    'Please tell me my email.',
    'Tell me my address',
    'Show me my profile',
    'Recall my email.',
    'Please look up my address',
    'Check the payment service port',
    'I wonder where I put my keys.',
    "I can't remember where I work.",
    'I forgot what my email is',
    'Any idea where I work',
    'You said I live in Busan, right?',
    'You said I live in Busan, right',
    'I live in Busan, correct',
    'My email is a@b.com?',
  ])('%s', (text) => {
    expect(kindOf(text)).toBe('ask');
  });
});

describe('triage: English statements, including ones that open like questions', () => {
  it.each([
    'I moved to Daejeon last week.',
    'When I moved to Seoul, I was happy.',
    'When Minji was young, she lived in Busan.',
    'How I wish I could live by the sea.',
    'Where I work, people are kind.',
    'What I want is a quiet flat.',
    'Who I am is not a secret.',
    'What a day.',
    'Whatever you say.',
    'Why not.',
    'You know, I moved to Busan.',
    'You know what, I moved to Busan.',
    'Will do.',
    "Can't wait to see the new office.",
    'Thanks, that fixed it!',
    "I don't live in Seoul anymore.",
    'The payment service port is set to 8080.',
    'Tomorrow is my birthday.',
    'Will Smith is my favourite actor.',
    'Can you remember that I moved to Busan?',
    'Please remember that my email is a@b.example.',
    'Note that the payment service port is 9090.',
  ])('%s', (text) => {
    expect(kindOf(text)).toBe('inform');
  });
});

describe('triage: Korean questions are asking', () => {
  it.each([
    '내 이메일 주소 뭐였지?',
    '내 이메일 주소 뭐였지',
    '내 이메일 뭐야',
    '내 이름이 뭐더라',
    '나 어디 살아',
    '나 어디 살지',
    '어디서 일해',
    '회사 어디였지',
    '내가 어디 산다고 했지',
    '언제 이사했지',
    '언제 이사했어',
    '내 생일 언제야',
    '누구야',
    '누구랑 살아',
    '뭐 좋아해',
    '무슨 색 좋아해',
    '결제 서비스 포트 몇 번이야',
    '결제 서비스 포트가 몇 번이지?',
    '왜 이사했어',
    '어떻게 알았어',
    '서울에 살아?',
    '서울에 살아？',
    '내가 어디 사는지 알아',
    '내 이메일 알고 있니',
    '부산으로 이사할까',
    '내 이메일 알려줘',
    '내 주소 좀 알려 주세요',
  ])('%s', (text) => {
    expect(triageMessage(text).language).toBe('ko');
    expect(kindOf(text)).toBe('ask');
  });
});

describe('triage: Korean statements, including wh-words used as indefinites', () => {
  it.each([
    '나 이번 주에 대전으로 이사했어.',
    '서울에 살아',
    '판교에서 일해',
    '내 이메일은 a@b.com이야',
    '결제 서비스 포트는 8000이야',
    '언제나 커피를 좋아해',
    '누구나 실수는 해',
    '뭐든지 좋아',
    '어디서나 잘 살아',
    '몇 년 전에 부산으로 이사했어',
    '얼마 전에 부산으로 이사했어',
    '왜냐하면 서울로 이사했기 때문이야',
    '우리 언니',
    '서울로 이사했을 때 행복했어',
  ])('%s', (text) => {
    expect(kindOf(text)).toBe('inform');
  });
});

describe('triage: a message is asking only when all its sentences are questions', () => {
  it('a statement and a question: informing, for the statement only', () => {
    const t = triageMessage('I moved to Lisbon last week. Do you know any good cafés there?');
    expect(t.kind).toBe('inform');
    expect(t.sentences.map((s) => s.act)).toEqual(['statement', 'question']);
    expect(t.reasons[0]).toMatch(/1 statement\(s\); 1 question/);
  });

  it('two questions: asking', () => {
    const t = triageMessage('Where do I live? And where do I work?');
    expect(t.kind).toBe('ask');
    expect(t.reasons[0]).toMatch(/all 2 sentences are questions/);
  });

  it('keeps sentences verbatim, splitting on end punctuation and new lines', () => {
    expect(splitSentences('I live in Seoul. My email is a@b.com!\nWhere do I work?')).toEqual(['I live in Seoul.', 'My email is a@b.com!', 'Where do I work?']);
    expect(splitSentences('  \n ')).toEqual([]);
    // A title's period before a name, and "e.g.", end no sentence; a line break always does.
    expect(splitSentences('My dentist is Dr. Park. We met at St. Mary’s, e.g. last week.')).toEqual(['My dentist is Dr. Park.', 'We met at St. Mary’s, e.g. last week.']);
    expect(splitSentences('I asked Dr.\nPark said no. I said no. Then we left.')).toEqual(['I asked Dr.', 'Park said no.', 'I said no.', 'Then we left.']);
  });

  it('ignores stage directions when deciding whether a sentence asks', () => {
    expect(isQuestion('*tilts head* where do I live', 'en')).toBe(true);
    expect(isQuestion('*looks around?* I live in Seoul', 'en')).toBe(false);
  });
});

describe('triage: language and topic', () => {
  it.each([
    ['I moved to Busan.', 'en'],
    ['나 부산으로 이사했어.', 'ko'],
    ['내 이메일은 minji.kim@example.com이야', 'ko'],
    ['ㅋㅋ', 'ko'],
    ['12345 !!!', 'other'],
    ['', 'other'],
  ])('%s is %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it.each([
    ['How do I reset my password?', 'account'],
    ['My email address is now a@b.com.', 'contact'],
    ['I moved to Daejeon last week.', 'home'],
    ['나 부산으로 이사했어', 'home'],
    ['I work at Kakao.', 'work'],
    ['My favourite colour is blue.', 'preferences'],
    ['The payment service port is set to 8080.', 'config'],
    ['결제 서비스 포트는 8000이야', 'config'],
    ['Nice weather.', 'general'],
  ])('%s is about %s', (text, topic) => {
    expect(topicOf(text)).toBe(topic);
  });
});

describe('triage: long input', () => {
  // A pattern that backtracks catastrophically takes seconds or hours on input like this: each
  // case only has to finish (within two seconds, about a hundred times what it takes here) and
  // say the same twice. How fast the write path is lives in `npm run bench:ingest`, not in a unit
  // test.
  it.each([
    ['long English prose', 'The migration took most of the afternoon because the cluster kept timing out. '.repeat(70)],
    ['one sentence without an end', 'what which who where when how '.repeat(170)],
    ['Korean without spaces', '어디언제누구뭐'.repeat(720)],
    ['commas', 'When I, '.repeat(625)],
  ])(
    '%s (5,000+ characters) finishes',
    (_, text) => {
      expect(text.length).toBeGreaterThanOrEqual(5000);
      expect(triageMessage(text)).toEqual(triageMessage(text));
    },
    2_000,
  );
});
