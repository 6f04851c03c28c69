import type { Speaker } from '../memory';
import { type Candidate, canonicalPlace, canonicalRelation, cleanValue, extractCandidates, typeOfRelation, validFromOf } from './extraction';
import { triageMessage } from './triage';

/** Wednesday, 13 May 2026, noon UTC. */
const AT = new Date('2026-05-13T12:00:00Z');
const DAY = 86_400_000;
const CUES = { milestone: ['love', 'today', 'got', 'offer', 'promoted'], gift: ['gift', 'gave me'] };

function extract(text: string, speaker: Speaker = 'user', at = AT): Candidate[] {
  return extractCandidates({ text, speaker, at, triage: triageMessage(text), cues: CUES });
}

/** The triples of a message as [subject, relation, value]. */
const triples = (text: string, speaker: Speaker = 'user'): [string | null, string | null, string | null][] =>
  extract(text, speaker)
    .filter((c) => c.memoryKind === 'fact')
    .map((c) => [c.subject, c.relation, c.value]);

/** The one triple a message gives. */
function triple(text: string, speaker: Speaker = 'user'): [string | null, string | null, string | null] {
  const found = triples(text, speaker);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The key of the one triple: what supersession goes by. */
const keyOf = (text: string, speaker: Speaker = 'user'): string => triple(text, speaker).slice(0, 2).join(' | ');

/** No triple; at most the prose of the message. */
function noTriple(text: string, speaker: Speaker = 'user'): void {
  const found = extract(text, speaker);
  expect(found.filter((c) => c.memoryKind === 'fact')).toEqual([]);
}

const daysBefore = (c: Candidate, at = AT): number => (at.getTime() - c.validFrom.getTime()) / DAY;

describe('extraction: profile facts in English', () => {
  it('"My email is X" and "My email address is now Y" share one key', () => {
    expect(triple('My email is minji@old.example.')).toEqual(['user', 'email', 'minji@old.example']);
    expect(triple('My email address is now minji@newmail.example.')).toEqual(['user', 'email', 'minji@newmail.example']);
    expect(keyOf('My e-mail is a@b.example')).toBe(keyOf('My email address is now c@d.example'));
    expect(keyOf('btw, my e-mail address has changed to x@y.example')).toBe('user | email');
  });

  it('an email is a core-less profile fact; a name is a core profile fact', () => {
    const [email] = extract('My email is minji@old.example.');
    expect(email).toMatchObject({ labels: ['profile'], core: false, cardinality: 'one' });
    const [name] = extract('My name is Minji.');
    expect(name).toMatchObject({ subject: 'user', relation: 'name', value: 'Minji', labels: ['profile'], core: true });
  });

  it('"I live in X", "I moved to Y", "I just moved to Z" share the key "lives in"', () => {
    expect(triple('I live in Seoul.')).toEqual(['user', 'lives in', 'Seoul']);
    expect(triple('I moved to Daejeon last week.')).toEqual(['user', 'lives in', 'Daejeon']);
    expect(triple('I just moved to Busan!')).toEqual(['user', 'lives in', 'Busan']);
    for (const text of [
      "I've moved to Incheon.",
      'I have just moved to Incheon.',
      'We finally moved to Incheon.',
      'I recently relocated to Incheon.',
      'I moved back to Incheon.',
      "I'm living in Incheon.",
      'I still live in Incheon.',
      "I've been living in Incheon for three years.",
      "We're based in Incheon.",
      'Oh, I moved to Incheon.',
      'Last week, I moved to Incheon.',
    ]) {
      expect([text, triple(text)]).toEqual([text, ['user', 'lives in', 'Incheon']]);
    }
  });

  it('chat that leaves out "I" still says it of the speaker', () => {
    expect(triple('Just moved to Busan!')).toEqual(['user', 'lives in', 'Busan']);
    expect(triple('btw moved to Busan last week')).toEqual(['user', 'lives in', 'Busan']);
    expect(triple('Living in Seoul these days.')).toEqual(['user', 'lives in', 'Seoul']);
    expect(triple('Working at Kakao now.')).toEqual(['user', 'works at', 'Kakao']);
    expect(triple('Started working at Toss last month.')).toEqual(['user', 'works at', 'Toss']);
    noTriple('Moving to Busan next month.');
  });

  it('"new", "current", "real" do not change the relation', () => {
    expect(keyOf('My new address is 12 Harbour Road.')).toBe(keyOf('My address is 3 Hill Street.'));
    expect(keyOf('My current email is x@y.example.')).toBe('user | email');
    expect(keyOf('My real name is Minji.')).toBe('user | name');
  });

  it('a place ends before what follows it', () => {
    expect(triple('I live in Seoul with my wife.')[2]).toBe('Seoul');
    expect(triple('I moved to Busan from Seoul.')[2]).toBe('Busan');
    expect(triple('I moved to Busan for work last year.')[2]).toBe('Busan');
    expect(triple('I moved to Busan in March.')[2]).toBe('Busan');
    expect(triple('I moved to New York, which is loud.')[2]).toBe('New York');
    expect(triple('I moved to Daejeon the day before yesterday.')[2]).toBe('Daejeon');
  });

  it('somewhere unnamed is not a home to key on', () => {
    noTriple('I moved to a new apartment.');
    noTriple('I moved into my parents’ house.');
    noTriple('I live in an apartment.');
  });

  it('"I work at X", "I\'m working for Y", "I started working at Z" share the key "works at"', () => {
    expect(triple('I work at Kakao.')).toEqual(['user', 'works at', 'Kakao']);
    expect(triple("I'm working for Naver.")).toEqual(['user', 'works at', 'Naver']);
    expect(triple('I started working at Toss.')).toEqual(['user', 'works at', 'Toss']);
    expect(triple("I'm now working at Line.")).toEqual(['user', 'works at', 'Line']);
    expect(triple('I have been working for Coupang since 2024.')).toEqual(['user', 'works at', 'Coupang']);
    expect(triple('I am employed by Samsung.')).toEqual(['user', 'works at', 'Samsung']);
    expect(triple('I work at Google as an engineer.')).toEqual(['user', 'works at', 'Google']);
    expect(triple('My employer is Hooli.')).toEqual(['user', 'works at', 'Hooli']);
  });

  it('"I work as X" is a job; working from home names no employer', () => {
    expect(triple('I work as a nurse.')).toEqual(['user', 'job', 'nurse']);
    noTriple('I work from home.');
    noTriple('I work for myself.');
    noTriple('I work at home.');
  });

  it('"My name is X" and "Call me Y" share the key "name"; "call me tomorrow" names no one', () => {
    expect(triple('My name is Minji Kim.')).toEqual(['user', 'name', 'Minji Kim']);
    expect(triple("My name's Minji.")).toEqual(['user', 'name', 'Minji']);
    expect(triple('Call me Jisoo.')).toEqual(['user', 'name', 'Jisoo']);
    expect(triple('Please call me Jisoo, thanks.')).toEqual(['user', 'name', 'Jisoo']);
    expect(triple('You can call me Jisoo Park')).toEqual(['user', 'name', 'Jisoo Park']);
    noTriple('Call me tomorrow.');
    noTriple('Call me when you are free.');
    noTriple('Call me Tomorrow.');
  });

  it('"My favorite color is X" and "My favourite colour is Y" share one key, a preference', () => {
    expect(keyOf('My favorite color is green.')).toBe('user | favourite colour');
    expect(keyOf('My favourite colour is blue.')).toBe('user | favourite colour');
    expect(keyOf('My fave colour is teal.')).toBe('user | favourite colour');
    expect(extract('My favorite color is green.')[0]!.labels).toEqual(['preference']);
    expect(triple('My favourite food is kimchi stew.')).toEqual(['user', 'favourite food', 'kimchi stew']);
  });

  it('"I like X" and "I love Y" are many likes; "I don\'t like X" is a dislike', () => {
    const like = extract('I like dark chocolate.')[0]!;
    expect(like).toMatchObject({ subject: 'user', relation: 'likes', value: 'dark chocolate', cardinality: 'many', labels: ['preference'] });
    expect(triple('I love hiking.')).toEqual(['user', 'likes', 'hiking']);
    expect(triple('I really enjoy jazz.')).toEqual(['user', 'likes', 'jazz']);
    expect(triple('I prefer tea to coffee.')).toEqual(['user', 'likes', 'tea']);
    expect(triple('I like spicy ramen a lot.')).toEqual(['user', 'likes', 'spicy ramen']);
    expect(triple("I don't like cilantro.")).toEqual(['user', 'dislikes', 'cilantro']);
    expect(triple("I don't really like cilantro.")).toEqual(['user', 'dislikes', 'cilantro']);
    expect(triple('I do not like mornings.')).toEqual(['user', 'dislikes', 'mornings']);
    expect(triple('I hate traffic.')).toEqual(['user', 'dislikes', 'traffic']);
    expect(triple("I can't stand olives.")).toEqual(['user', 'dislikes', 'olives']);
  });

  it('a value must look like one: "My phone is broken" is no phone number, "My job is boring" no job', () => {
    noTriple('My phone is broken.');
    noTriple('My email is down again.');
    noTriple('My job is boring.');
    noTriple('My back is killing me.');
    noTriple('My birthday is tomorrow.');
    expect(triple('My birthday is May 3rd.')).toEqual(['user', 'birthday', 'May 3rd']);
    expect(triple('My phone number is 010-1234-5678.')).toEqual(['user', 'phone number', '010-1234-5678']);
    expect(triple('My number is +82 10 1234 5678.')).toEqual(['user', 'phone number', '+82 10 1234 5678']);
    expect(triple('내 생일은 5월 3일이야')).toEqual(['user', 'birthday', '5월 3일']);
  });

  it('a name in a value is not cut at its first letters ("Toronto" is no "to", "Itaewon" no "it")', () => {
    expect(triple('I moved to Toronto.')[2]).toBe('Toronto');
    expect(triple('I live in Itaewon.')[2]).toBe('Itaewon');
    expect(triple('I like YouTube.')[2]).toBe('YouTube');
  });

  it('says two things in one sentence as two triples', () => {
    expect(triples('My name is Minji and I live in Seoul.')).toEqual([
      ['user', 'name', 'Minji'],
      ['user', 'lives in', 'Seoul'],
    ]);
    expect(triples('My email is a@b.example, and my phone number is 010-1111-2222.')).toEqual([
      ['user', 'email', 'a@b.example'],
      ['user', 'phone number', '010-1111-2222'],
    ]);
    expect(triples('I used to live in Seoul, but now I live in Busan.')).toEqual([['user', 'lives in', 'Busan']]);
    expect(triples('I like fish and chips.')).toHaveLength(1);
  });

  it('a request to keep something keeps it: "Can you remember that I moved to Busan?"', () => {
    expect(triple('Can you remember that I moved to Busan?')).toEqual(['user', 'lives in', 'Busan']);
    expect(triple('Please remember that my email is a@b.example.')).toEqual(['user', 'email', 'a@b.example']);
    expect(triple('Note that the payment service port is 9090.')).toEqual(['payment service', 'port', '9090']);
    expect(extract('Do you remember that I moved to Busan?')).toEqual([]);
  });

  it('several statements in one message, and no fact from its question', () => {
    expect(triples('I live in Seoul. I work at Kakao. Where is my umbrella?')).toEqual([
      ['user', 'lives in', 'Seoul'],
      ['user', 'works at', 'Kakao'],
    ]);
    expect(triples('I moved to Lisbon last week. Do you know any good cafés there?')).toEqual([['user', 'lives in', 'Lisbon']]);
  });

  it('the same triple twice in a message is one candidate', () => {
    expect(triples('I live in Seoul. Yes, I live in Seoul.')).toEqual([['user', 'lives in', 'Seoul']]);
  });

  it('stage directions are no part of the fact', () => {
    const [c] = extract('*nods* I live in Seoul.');
    expect(c).toMatchObject({ subject: 'user', relation: 'lives in', value: 'Seoul', text: '*nods* I live in Seoul.' });
  });
});

describe('extraction: config facts about things', () => {
  it('"is set to", "is now", "is", "changed to", "we set … to" share one key', () => {
    const key = 'payment service | port';
    expect(triple('The payment service port is set to 8080.')).toEqual(['payment service', 'port', '8080']);
    expect(triple('The payment service port is now 9090.')).toEqual(['payment service', 'port', '9090']);
    expect(keyOf('The payment service port is 8000.')).toBe(key);
    expect(keyOf('The payment service port changed to 8443.')).toBe(key);
    expect(keyOf('The payment service port has been changed to 8443.')).toBe(key);
    expect(keyOf('We set the payment service port to 7070.')).toBe(key);
    expect(keyOf('FYI the payment service port was bumped to 7071.')).toBe(key);
  });

  it('"X runs on / uses / is on port 9090": the same key', () => {
    expect(triple('The payment service now runs on port 9090.')).toEqual(['payment service', 'port', '9090']);
    expect(keyOf('The payment service uses port 9090.')).toBe('payment service | port');
    expect(keyOf('The payment service is on port 9090.')).toBe('payment service | port');
    expect(keyOf('The payment service is now on port 9091.')).toBe('payment service | port');
    noTriple('The cat is on the mat.');
  });

  it('"X moved to port 8443" takes the attribute from the value', () => {
    expect(triple('payment-service moved to port 8443.')).toEqual(['payment-service', 'port', '8443']);
    expect(triple('The payment service moved to port 8443.')).toEqual(['payment service', 'port', '8443']);
    expect(triple('The search database moved to host db-07.internal.')).toEqual(['search database', 'host', 'db-07.internal']);
    expect(triple('We moved the payment service to port 8443.')).toEqual(['payment service', 'port', '8443']);
  });

  it('a thing without an attribute moved somewhere: its location', () => {
    expect(triple('The office moved to Pangyo.')).toEqual(['office', 'location', 'Pangyo']);
  });

  it('possessives and other attributes', () => {
    expect(triple("Minji Kim's phone number is now 010-1234-5678.")).toEqual(['Minji Kim', 'phone number', '010-1234-5678']);
    expect(triple("The api-gateway's timeout is 30s.")).toEqual(['api-gateway', 'timeout', '30s']);
    expect(triple('The billing service timeout is set to 30 seconds.')).toEqual(['billing service', 'timeout', '30 seconds']);
    expect(triple('Our database version is 15.')).toEqual(['database', 'version', '15']);
    expect(triple('I changed my email to new@mail.example.')).toEqual(['user', 'email', 'new@mail.example']);
  });

  it('no triple from a plain "is" without an attribute, a pronoun, or a negation', () => {
    noTriple('The weather is nice.');
    noTriple('The weather is now terrible.');
    noTriple('The reason my port is wrong is unclear.');
    noTriple('It is set to 8080.');
    noTriple('The payment service port is not 8080.');
    noTriple('The staging database is slow today.');
    expect(triple('The team lead is Minji.')).toEqual(['team', 'lead', 'Minji']);
    expect(triple('The meeting time is 3pm.')).toEqual(['meeting', 'time', '3pm']);
    noTriple('Honestly the hardest part of the project is agreeing on what done means.');
  });

  it('a triple says the same for every speaker, a document included', () => {
    expect(triple('The payment service port is set to 8080.', 'document')).toEqual(['payment service', 'port', '8080']);
  });
});

describe('extraction: Korean', () => {
  it('"내 이메일은 a@b.com이야" is the email, the same key as in English', () => {
    expect(triple('내 이메일은 a@b.com이야')).toEqual(['user', 'email', 'a@b.com']);
    expect(triple('내 이메일 주소는 minji.kim@example.com 이야.')).toEqual(['user', 'email', 'minji.kim@example.com']);
    expect(keyOf('내 이메일 주소는 a@b.com이에요')).toBe(keyOf('My email address is now c@d.example'));
    expect(triple('내 이메일이 a@b.com으로 바뀌었어')).toEqual(['user', 'email', 'a@b.com']);
    expect(triple('내 이메일을 new@b.com으로 바꿨어')).toEqual(['user', 'email', 'new@b.com']);
  });

  it('"결제 서비스 포트는 8000이야" and "…9000이다" share one key', () => {
    expect(triple('결제 서비스 포트는 8000이야')).toEqual(['결제 서비스', '포트', '8000']);
    expect(triple('결제 서비스 포트는 9000이다.')).toEqual(['결제 서비스', '포트', '9000']);
    expect(triple('결제 서비스 포트는 8443번이야')).toEqual(['결제 서비스', '포트', '8443']);
    expect(triple('결제 서비스 포트가 7000으로 바뀌었어')).toEqual(['결제 서비스', '포트', '7000']);
    expect(triple('결제 서비스 포트를 7070으로 바꿨어')).toEqual(['결제 서비스', '포트', '7070']);
  });

  it('moves and homes: the city romanised, the key "lives in"', () => {
    expect(triple('나 부산으로 이사했어')).toEqual(['user', 'lives in', 'Busan']);
    expect(triple('나 이번 주에 대전으로 이사했어.')).toEqual(['user', 'lives in', 'Daejeon']);
    expect(triple('서울로 이사 왔어')).toEqual(['user', 'lives in', 'Seoul']);
    expect(triple('서울에 살아')).toEqual(['user', 'lives in', 'Seoul']);
    expect(triple('나는 서울에서 살고 있어.')).toEqual(['user', 'lives in', 'Seoul']);
    expect(triple('요즘은 인천에 살아요')).toEqual(['user', 'lives in', 'Incheon']);
    expect(triple('내가 사는 곳은 대전이야')).toEqual(['user', 'lives in', 'Daejeon']);
    expect(keyOf('서울에 살아')).toBe(keyOf('I live in Seoul.'));
    expect(triple('서울에 살아')[2]).toBe(triple('I live in Seoul.')[2]);
  });

  it('work: "판교에서 일해", "카카오에 다녀"', () => {
    expect(triple('판교에서 일해')).toEqual(['user', 'works at', 'Pangyo']);
    expect(triple('요즘 카카오에서 일해.')).toEqual(['user', 'works at', '카카오']);
    expect(triple('네이버에 다니고 있어')).toEqual(['user', 'works at', '네이버']);
    expect(triple('토스에서 근무해요')).toEqual(['user', 'works at', '토스']);
  });

  it('names, likes and favourites', () => {
    expect(triple('내 이름은 민지야.')).toEqual(['user', 'name', '민지']);
    expect(triple('제 이름은 민지입니다.')).toEqual(['user', 'name', '민지']);
    expect(triple('커피를 좋아해')).toEqual(['user', 'likes', '커피']);
    expect(triple('나는 커피를 정말 좋아해.')).toEqual(['user', 'likes', '커피']);
    // What is liked keeps the words that describe it; the speaker and a time are no part of it.
    expect(triple('나는 매운 음식을 정말 좋아해')).toEqual(['user', 'likes', '매운 음식']);
    expect(triple('요즘은 비싼 차를 싫어해.')).toEqual(['user', 'dislikes', '비싼 차']);
    expect(triple('저는 작은 강아지를 좋아해')).toEqual(['user', 'likes', '작은 강아지']);
    expect(triple('나는 달콤한 디저트를 좋아해')).toEqual(['user', 'likes', '달콤한 디저트']);
    expect(triple('오이를 싫어해')).toEqual(['user', 'dislikes', '오이']);
    expect(triple('내가 제일 좋아하는 색은 파란색이야')).toEqual(['user', 'favourite colour', '파란색']);
    expect(keyOf('제일 좋아하는 음식은 김치찌개야')).toBe(keyOf('My favourite food is pizza.'));
  });

  it('no triple: plans, wishes, time clauses, negations, someone else, a plain topic', () => {
    noTriple('내년에 부산으로 이사할 거야.');
    noTriple('부산으로 이사하고 싶어.');
    noTriple('부산으로 이사했으면 좋겠어.');
    noTriple('서울로 이사했을 때 행복했어.');
    noTriple('서울에 안 살아.');
    noTriple('서울에 살지 않아.');
    noTriple('서울에 살아보고 싶어.');
    noTriple('네이버에서 일하고 싶어.');
    noTriple('부산에 다녀왔어.');
    noTriple('친구가 부산으로 이사했어.');
    noTriple('엄마도 부산으로 이사했어.');
    noTriple('형은 서울에 살아.');
    noTriple('친구는 커피를 좋아해.');
    noTriple('친구가 좋아하는 색은 파란색이야.');
    noTriple('내 이메일은 a@b.com이 아니야.');
    noTriple('포트를 9000으로 옮겼어.');
    noTriple('나는 개발자야.');
    noTriple('오늘은 월요일이야.');
    noTriple('내일은 월요일이야.');
    noTriple('제주도는 섬이야.');
    noTriple('너를 사랑해.');
    noTriple('결제 서비스는 8000번 포트에서 요청을 받는다.');
  });
});

describe('extraction: who a fact is about (provenance)', () => {
  it('the assistant\'s "your" is the user', () => {
    const [c] = extract('Your favourite colour is probably blue.', 'assistant');
    expect(c).toMatchObject({ subject: 'user', relation: 'favourite colour', value: 'blue' });
    expect(triple('You live in Busan.', 'assistant')).toEqual(['user', 'lives in', 'Busan']);
    expect(triple('You moved to Busan last week.', 'assistant')).toEqual(['user', 'lives in', 'Busan']);
  });

  it('the assistant\'s "my" is the assistant, and not a core fact of the user', () => {
    const [c] = extract('My name is Claude.', 'assistant');
    expect(c).toMatchObject({ subject: 'assistant', relation: 'name', value: 'Claude', core: false });
    expect(triple('Call me Claude.', 'assistant')).toEqual(['assistant', 'name', 'Claude']);
  });

  it('the user\'s "your" is the assistant', () => {
    expect(triple('Your name is Claude.')).toEqual(['assistant', 'name', 'Claude']);
  });

  it('other people\'s news is not the user\'s: "My friend moved to Busan"', () => {
    for (const text of [
      'My friend moved to Busan.',
      'My friend is moving to Busan.',
      'My brother lives in Busan.',
      'My sister said she moved to Busan.',
      'My mom is a teacher.',
      'My wife and I are moving to Busan.',
      'She moved to Busan last week.',
      'They live in Busan.',
      'Everyone moved to the new office.',
    ]) {
      expect([text, triples(text).filter(([s, r]) => s === 'user' && r === 'lives in')]).toEqual([text, []]);
      expect([text, triples(text).filter(([s]) => s === 'user')]).toEqual([text, []]);
    }
  });

  it('"My wife and I live in Seoul": the user lives there too', () => {
    expect(triple('My wife and I live in Seoul.')).toEqual(['user', 'lives in', 'Seoul']);
  });
});

describe('extraction: what must not become a fact', () => {
  it.each(['Where do I live?', 'Do you remember my email?', 'remind me where I work', 'Can you tell me where I live', '내 이메일 주소 뭐였지?', '어디 살아'])(
    'a question (%s) gives nothing at all',
    (text) => {
      expect(extract(text)).toEqual([]);
    },
  );

  it('"I love you" is prose, labelled by its cue words', () => {
    const [c] = extract('I love you.');
    expect(c).toMatchObject({ memoryKind: 'prose', subject: null, labels: ['milestone'], text: 'I love you.' });
    expect(extract('I love my job.')[0]!.memoryKind).toBe('prose');
  });

  it.each([
    'I might move to Busan next year.',
    'I will move to Busan.',
    "I'll move to Busan in June.",
    "I'm going to move to Busan.",
    "I'm gonna move to Busan.",
    'I want to live in Busan.',
    "I'm planning to move to Busan.",
    "I'm moving to Busan next month.",
    'I plan to move to Busan.',
    "I'd love to live in Busan someday.",
    'I could live in Busan.',
    'If I moved to Busan, I would be happy.',
    'When I moved to Seoul, I was happy.',
    'Maybe I will work at Kakao.',
    'I might work for Naver.',
    'My address is going to be 12 Harbour Road.',
    'My next job might be at Google.',
  ])('a plan or a condition (%s) gives no triple', (text) => {
    noTriple(text);
    expect(extract(text).every((c) => c.memoryKind === 'prose')).toBe(true);
  });

  it.each([
    "I don't live in Seoul anymore.",
    'I no longer live in Seoul.',
    'I never lived in Seoul.',
    "I didn't move to Busan.",
    "I haven't moved to Busan yet.",
    "I'm not working at Kakao anymore.",
    "I don't work at Kakao.",
    'My email is not a@b.example.',
    'My email isn’t a@b.example.',
  ])('a negation (%s) stores no value as true', (text) => {
    noTriple(text);
  });

  it('a past home is not a home now', () => {
    noTriple('I lived in Seoul.');
    noTriple('I used to live in Seoul.');
    noTriple('I used to like olives.');
  });

  it('pronouns and clauses are no values', () => {
    noTriple('I like it.');
    noTriple('I like to swim.');
    noTriple('My plan is to move to Busan.');
    noTriple('My question is what my email is.');
  });
});

describe('extraction: valid time', () => {
  const firstFact = (text: string): Candidate => extract(text).find((c) => c.memoryKind === 'fact')!;

  it.each([
    ['I moved to Daejeon last week.', 7],
    ['I moved to Daejeon yesterday.', 1],
    ['I moved to Daejeon last night.', 1],
    ['I moved to Daejeon the day before yesterday.', 2],
    ['I moved to Daejeon 3 days ago.', 3],
    ['I moved to Daejeon a week ago.', 7],
    ['I moved to Daejeon two weeks ago.', 14],
    ['I moved to Daejeon a couple of days ago.', 2],
    ['I started working at Hooli last month.', 30],
    ['I moved to Daejeon last year.', 365],
    ['I moved to Daejeon last Monday.', 2],
    ['I moved to Daejeon last Wednesday.', 7],
    ['I moved to Daejeon today.', 0],
    ['I moved to Daejeon.', 0],
    // Phrases the list above has none for, read by chrono-node relative to the message.
    ['I moved to Denver on Friday.', 5],
    ['We moved to Denver earlier this month.', 12],
    ['어제 서울로 이사했어.', 1],
    ['지난주에 대전으로 이사했어.', 7],
    ['지난 주에 대전으로 이사했어.', 7],
    ['3일 전에 부산으로 이사했어.', 3],
    ['2주 전에 부산으로 이사했어.', 14],
    ['사흘 전에 부산으로 이사했어.', 3],
    ['이틀 전 부산으로 이사했어.', 2],
    ['한 달 전에 부산으로 이사했어.', 30],
    ['두 주 전에 부산으로 이사했어.', 14],
    ['작년에 부산으로 이사했어.', 365],
    ['그저께 부산으로 이사했어.', 2],
    ['나 이번 주에 대전으로 이사했어.', 0],
  ])('%s: %i day(s) before the message', (text, days) => {
    expect(daysBefore(firstFact(text))).toBe(days);
  });

  it('the time phrase is not part of the value', () => {
    expect(firstFact('I moved to Daejeon last week.').value).toBe('Daejeon');
    expect(firstFact('I moved to Daejeon 3 days ago.').value).toBe('Daejeon');
    expect(firstFact('I moved to Daejeon a couple of days ago.').value).toBe('Daejeon');
  });

  it('"in 2019" dates from that year; a year to come does not move it', () => {
    expect(firstFact('I moved to Seoul in 2019.').validFrom.toISOString()).toBe('2019-01-01T00:00:00.000Z');
    expect(firstFact('I moved to Seoul in 2019.').value).toBe('Seoul');
    expect(validFromOf('We launch in 2031.', AT)).toEqual(AT);
  });

  it('each clause has its own time; a leading time phrase dates what follows', () => {
    const [seoul, busan] = extract('I moved to Seoul in 2019 but I live in Busan now.');
    expect(seoul).toMatchObject({ value: 'Seoul', validFrom: new Date('2019-01-01T00:00:00Z') });
    expect(busan).toMatchObject({ value: 'Busan', validFrom: AT });
    expect(daysBefore(firstFact('Last week, I moved to Daejeon.'))).toBe(7);
  });

  it('prose is dated as well', () => {
    const [c] = extract('We got engaged last night in Porto!');
    expect(c!.memoryKind).toBe('prose');
    expect(daysBefore(c!)).toBe(1);
  });
});

describe('extraction: prose', () => {
  it('a statement no rule reads is one prose candidate, labelled by every type whose cue words it has', () => {
    const [c] = extract('I got the job offer from the Seoul office today!');
    expect(c).toMatchObject({ memoryKind: 'prose', labels: ['milestone'], rule: 'prose, labelled by cue words (milestone)' });
    const [gift] = extract('My sister gave me a watch and I love it.');
    expect(gift!.labels).toEqual(['milestone', 'gift']);
  });

  it('several statements without a triple are one prose candidate of them all', () => {
    const [c] = extract('The weather was awful. We stayed in and played board games.');
    expect(c).toMatchObject({ memoryKind: 'prose', text: 'The weather was awful. We stayed in and played board games.', labels: [], rule: 'prose: no rule found a triple' });
  });

  it('once a message has a triple, its other statements are not kept as prose', () => {
    expect(extract('I live in Seoul. The weather is awful.').map((c) => c.memoryKind)).toEqual(['fact']);
  });

  it('an empty message, or stage directions only, give only prose', () => {
    expect(extract('')).toEqual([]);
    expect(extract('*smiles*').map((c) => c.memoryKind)).toEqual(['prose']);
  });
});

describe('extraction: names and values', () => {
  it('canonicalRelation folds spelling and synonyms', () => {
    expect(canonicalRelation(' Favorite  Color ')).toBe('favourite colour');
    expect(canonicalRelation('e-mail address')).toBe('email');
    expect(canonicalRelation('이메일 주소')).toBe('email');
    expect(canonicalRelation('mobile number')).toBe('phone number');
    expect(canonicalRelation('전화번호')).toBe('phone number');
    expect(canonicalRelation('회사')).toBe('works at');
    expect(canonicalRelation('사는 곳')).toBe('lives in');
    expect(canonicalRelation('좋아하는 색깔')).toBe('favourite colour');
    expect(canonicalRelation('port')).toBe('port');
  });

  it('canonicalPlace romanises Korean cities, with or without 시', () => {
    expect(canonicalPlace('부산')).toBe('Busan');
    expect(canonicalPlace('부산광역시')).toBe('Busan');
    expect(canonicalPlace('서울특별시')).toBe('Seoul');
    expect(canonicalPlace('수원시')).toBe('Suwon');
    expect(canonicalPlace('Lisbon')).toBe('Lisbon');
  });

  it('typeOfRelation: preferences, profile facts, everything else a fact', () => {
    expect(typeOfRelation('likes')).toBe('preference');
    expect(typeOfRelation('favourite colour')).toBe('preference');
    expect(typeOfRelation('lives in')).toBe('profile');
    expect(typeOfRelation('email')).toBe('profile');
    expect(typeOfRelation('port')).toBe('fact');
  });

  it('cleanValue drops hedges, time phrases, trailing clauses and quotes; refuses non-values', () => {
    expect(cleanValue('probably blue.')).toBe('blue');
    expect(cleanValue('now "minji@newmail.example".')).toBe('minji@newmail.example');
    expect(cleanValue('Daejeon last week')).toBe('Daejeon');
    expect(cleanValue('8080, as agreed')).toBe('8080');
    expect(cleanValue('set to 8080')).toBe('8080');
    expect(cleanValue('you')).toBeNull();
    expect(cleanValue('not 8080')).toBeNull();
    expect(cleanValue('going to be 8080')).toBeNull();
    expect(cleanValue('moving to Busan')).toBeNull();
    expect(cleanValue('one two three four five six seven eight nine')).toBeNull();
    expect(cleanValue('  ')).toBeNull();
  });
});

describe('extraction: long input', () => {
  // A pattern that backtracks catastrophically takes seconds or hours on input like this: each
  // case only has to finish (within two seconds, about a hundred times what it takes here) and
  // say the same twice. How fast the write path is lives in `npm run bench:ingest`, not in a unit
  // test.
  it.each([
    ['long English prose', 'The migration took most of the afternoon because the cluster kept timing out. '.repeat(70)],
    ['one English sentence, no end', 'my port is the set to now and I moved to is are '.repeat(110)],
    ['a run of clause breaks', 'I, and I, but my, '.repeat(300)],
    ['Korean without spaces', '서울로이사에서살아를좋아해는은'.repeat(360)],
    ['Korean words', '결제 서비스 포트는 친구가 서울에 '.repeat(280)],
    ['one long token', 'a'.repeat(6000)],
  ])(
    '%s (5,000+ characters) finishes',
    (_, text) => {
      expect(text.length).toBeGreaterThanOrEqual(5000);
      expect(extract(text)).toEqual(extract(text));
    },
    2_000,
  );
});

describe('extraction: everyday set phrases about oneself', () => {
  it.each([
    ["I'm from Busan.", ['user', 'is from', 'Busan']],
    ['I am originally from Lisbon', ['user', 'is from', 'Lisbon']],
    ["I'm from Busan originally.", ['user', 'is from', 'Busan']],
    ["I'm allergic to peanuts.", ['user', 'allergic to', 'peanuts']],
    ['I have a dog named Coco.', ['user', 'has a pet', 'Coco (dog)']],
    ["I've got a cat called Miso", ['user', 'has a pet', 'Miso (cat)']],
    ["I'm vegetarian now.", ['user', 'diet', 'vegetarian']],
    ['I am a vegan', ['user', 'diet', 'vegan']],
    ['I speak Korean and English.', ['user', 'speaks', 'Korean']],
    ["I'm 34 years old.", ['user', 'age', '34']],
  ] as const)('%s', (text, expected) => {
    expect(triple(text)).toEqual(expected);
  });

  it('types them: health for allergies and diet, profile for origin and age', () => {
    expect(extract("I'm allergic to peanuts.")[0]!.labels).toEqual(['health']);
    expect(extract("I'm from Busan.")[0]!.labels).toEqual(['profile']);
  });

  it('leaves plans, other people and non-values alone', () => {
    noTriple("I'm from the future, obviously.");
    noTriple('My sister is allergic to cats.');
    noTriple("I'm 5 minutes away");
  });
});

describe('extraction: time phrases read by chrono-node', () => {
  it('leaves the phrase out of the value, and reads a weekday or a month named alone as the one before the message', () => {
    const [moved] = extract('I moved to Denver on Friday.');
    expect(moved).toMatchObject({ value: 'Denver' });
    expect(daysBefore(extract('Over the weekend I relocated to Tacoma.')[0]!)).toBeGreaterThanOrEqual(3);
    // A month named alone, ahead of the message, is the one before it: last December.
    expect(daysBefore(extract('I moved to Boise in December.')[0]!)).toBe(163);
    // A month's name that is a name dates nothing.
    expect(daysBefore(extract('My sister April moved to Boise.').find((c) => c.memoryKind === 'prose') ?? extract('My sister April moved to Boise.')[0]!)).toBe(0);
    expect(daysBefore(extract('I live with my friend May.')[0]!)).toBe(0);
  });
});
