import type { Speaker } from '../memory';
import { type AdmissionDecision, type AdmissionPolicy, admit, contentWords, similarityNeeded, type TypePolicy } from './admission';
import { extractCandidates } from './extraction';
import { triageMessage } from './triage';

/** A small policy in the shape of the default one (libs/ledger's DEFAULT_ADMISSION_POLICY). */
const milestone: TypePolicy = {
  importance: 'high',
  cues: ['love', 'today', 'finally', 'got', 'offer', 'promoted', 'engaged', 'first', '사랑', '오늘', '드디어', '합격'],
  requiredKeywords: ['job offer', 'got the job', 'new job', 'promoted', 'engaged', 'married', 'i love you', '합격', '승진', '사랑해'],
  examples: ['I got the job offer today!', 'I just got promoted at work.', 'We got engaged last night.'],
  minSimilarity: 0.5,
  onFail: 'retype',
};
const achievement: TypePolicy = {
  importance: 'high',
  cues: ['won', 'finished', 'award'],
  requiredKeywords: ['won', 'award', 'finished my'],
  examples: ['I won first place in the competition.'],
  minSimilarity: 0.5,
  onFail: 'retype',
};
const POLICY: AdmissionPolicy = {
  defaultType: 'fact',
  roleplayGuard: true,
  chitchat: {
    enabled: true,
    phrases: ['thanks', 'thank you', 'ok', 'okay', 'k', 'haha', 'lol', 'hi', 'nice', 'cool', 'yep', 'hmm', 'good night', 'sounds good', '고마워', '감사', 'ㅋㅋ', '응', '좋아'],
    maxWords: 6,
  },
  minContentWords: 2,
  maxHighImportanceLabels: 1,
  types: { milestone, achievement },
};

/** The write path without the ledger: triage, extraction with the policy's cues, admission. */
function decide(text: string, opts: { speaker?: Speaker; policy?: AdmissionPolicy; similarity?: number | null } = {}): AdmissionDecision[] {
  const policy = opts.policy ?? POLICY;
  const triage = triageMessage(text);
  if (triage.kind === 'ask') return [];
  const cues = Object.fromEntries(Object.entries(policy.types).map(([type, tp]) => [type, tp.cues]));
  const candidates = extractCandidates({ text, speaker: opts.speaker ?? 'user', at: new Date('2026-05-13T12:00:00Z'), triage, cues });
  const similarity = opts.similarity === undefined ? 0.8 : opts.similarity;
  return admit({ candidates, policy, language: triage.language, similarity: () => similarity });
}

const stored = (text: string, opts?: Parameters<typeof decide>[1]): string[] =>
  decide(text, opts)
    .filter((d) => d.type !== null)
    .map((d) => d.type!);
const gate = (d: AdmissionDecision, name: string) => d.gates.find((g) => g.gate === name);

describe('admission: the role-play guard', () => {
  it.each(['*smiles softly and leans closer*', '*laughs* *nods*', '*sighs and stares out the window*', '*grins* *waves*'])('stage directions only (%s): rejected', (text) => {
    const [d] = decide(text);
    expect(d).toMatchObject({ verdict: 'rejected', type: null, reason: 'only stage directions (text in asterisks)' });
    expect(gate(d!, 'role-play guard')!.passed).toBe(false);
  });

  it.each(['She smiles and looks away.', 'He leaned against the door.', 'Minji laughed softly at the joke.', 'They nodded and walked on.'])('third-person narration (%s): rejected', (text) => {
    const [d] = decide(text);
    expect(d).toMatchObject({ verdict: 'rejected', reason: 'third-person narration, not something the speaker told' });
  });

  it('narration about the speaker is something told', () => {
    expect(stored('She smiled at me and said my new haircut looks great.')).toEqual(['fact']);
  });

  it.each(['It looks like the staging server is down again.', 'Everything looks fine on staging now.', 'The build turned green after the fix.'])(
    'a plain statement that starts like narration (%s) is not role-play',
    (text) => {
      const [d] = decide(text);
      expect(gate(d!, 'role-play guard')!.passed).toBe(true);
      expect(d!.type).toBe('fact');
    },
  );

  it('stage directions around a fact are ignored, and the fact is kept', () => {
    const [d] = decide('*nods* I live in Seoul.');
    expect(d).toMatchObject({ verdict: 'admitted', type: 'profile', candidate: { subject: 'user', relation: 'lives in', value: 'Seoul' } });
    expect(gate(d!, 'role-play guard')!.detail).toBe('stage directions ignored; the rest is a statement');
  });

  it('the guard can be switched off', () => {
    expect(stored('She smiles and looks away.', { policy: { ...POLICY, roleplayGuard: false } })).toEqual(['fact']);
  });
});

describe('admission: the chit-chat filter', () => {
  it.each(['Thanks, that fixed it!', 'haha ok', 'ok', 'lol nice', 'good night', 'ㅋㅋ 고마워', 'Sounds good.', 'Hmm, ok.', 'Cool, thanks!', 'yep', '고마워요', 'ㅋㅋㅋㅋ', '응!'])(
    '%s: nothing stored',
    (text) => {
      const decisions = decide(text);
      expect(decisions.length).toBeGreaterThan(0);
      expect(decisions.every((d) => d.verdict === 'rejected')).toBe(true);
      expect(gate(decisions[0]!, 'chit-chat filter')!.passed).toBe(false);
    },
  );

  it('small talk is found as whole words: not the K of K-pop, not the 응 of 응급실, not the 좋아 of 좋아해', () => {
    expect(stored('K-pop is my whole personality.')).toEqual(['fact']);
    expect(stored('응급실에 다녀왔어 너무 힘들었어')).toEqual(['fact']);
    expect(stored('나 요즘 뜨개질 좋아해')).toEqual(['fact']);
  });

  it('a long message that opens with thanks is not small talk', () => {
    expect(stored('Thanks, the new deploy script saved me an hour of manual steps yesterday.')).toEqual(['fact']);
  });

  it('news that a proposed label asks for is not small talk: "Nice, I got promoted!"', () => {
    const [d] = decide('Nice, I got promoted!');
    expect(d).toMatchObject({ verdict: 'admitted', type: 'milestone' });
    expect(gate(d!, 'chit-chat filter')).toMatchObject({ passed: true, detail: 'short, but carries what a milestone needs' });
  });

  it('prose needs at least minContentWords content words', () => {
    const [d] = decide('So it is.');
    expect(d).toMatchObject({ verdict: 'rejected', reason: '0 content word(s); at least 2 needed' });
  });

  it('facts do not go through the filter: "ok, my email is a@b.example" is stored', () => {
    expect(stored('ok, my email is a@b.example')).toEqual(['profile']);
    expect(stored('Thanks! By the way, I moved to Busan.')).toEqual(['profile']);
  });

  it('the filter can be switched off', () => {
    const policy = { ...POLICY, chitchat: { ...POLICY.chitchat, enabled: false }, minContentWords: 0 };
    expect(stored('haha ok', { policy })).toEqual(['fact']);
  });
});

describe('admission: type gates (keywords, then similarity)', () => {
  it('a milestone with its keyword and enough similarity is admitted as one', () => {
    const [d] = decide('I got the job offer from the Seoul office today!', { similarity: 0.8 });
    expect(d).toMatchObject({ verdict: 'admitted', proposedType: 'milestone', type: 'milestone', reason: 'admitted as milestone' });
    expect(gate(d!, 'milestone: keywords')).toMatchObject({ passed: true, detail: 'has "job offer"' });
    expect(gate(d!, 'milestone: similarity')).toMatchObject({ passed: true, detail: 'cosine 0.80 to its examples; at least 0.5 needed' });
  });

  it('too little similarity: retyped to the default type', () => {
    const [d] = decide('I got the job offer from the Seoul office today!', { similarity: 0.3 });
    expect(d).toMatchObject({ verdict: 'retyped', proposedType: 'milestone', type: 'fact', reason: 'failed the gates of milestone; stored as fact' });
    expect(gate(d!, 'milestone: similarity')!.passed).toBe(false);
  });

  it('similarity not measured (a language the model does not cover): the keyword decides', () => {
    const [d] = decide('드디어 오늘 카카오 최종 합격했어!', { similarity: null });
    expect(d).toMatchObject({ verdict: 'admitted', type: 'milestone' });
    expect(gate(d!, 'milestone: similarity')!.detail).toMatch(/not measured/);
  });

  it.each(['I finally got my coffee today, and it was cold again.', 'Today was a special day at the park with the dog.', 'The first snow of the year fell on Busan today.'])(
    'cue words without a keyword (%s): retyped, and no similarity asked for',
    (text) => {
      const [d] = decide(text);
      expect(d).toMatchObject({ verdict: 'retyped', proposedType: 'milestone', type: 'fact' });
      expect(gate(d!, 'milestone: keywords')!.passed).toBe(false);
      expect(gate(d!, 'milestone: similarity')).toBeUndefined();
    },
  );

  it('"I love you" is a milestone by its keyword', () => {
    expect(stored('I love you.')).toEqual(['milestone']);
  });

  it('a failed type whose policy rejects: nothing stored', () => {
    const policy: AdmissionPolicy = { ...POLICY, types: { ...POLICY.types, milestone: { ...milestone, onFail: 'reject' } } };
    const [d] = decide('I finally got my coffee today, and it was cold again.', { policy });
    expect(d).toMatchObject({ verdict: 'rejected', type: null, reason: 'failed the gates of milestone, whose policy rejects rather than retypes' });
  });

  it("a label the policy does not know is taken as it is (a triple's type)", () => {
    expect(decide('I live in Seoul.')[0]).toMatchObject({ verdict: 'admitted', type: 'profile', gates: [{ gate: 'role-play guard', passed: true }] });
    expect(decide('I like dark chocolate.')[0]).toMatchObject({ verdict: 'admitted', type: 'preference' });
    expect(decide('The payment service port is set to 8080.')[0]).toMatchObject({ verdict: 'admitted', type: 'fact' });
  });

  it('a type without a keyword gate goes straight to similarity', () => {
    const policy: AdmissionPolicy = { ...POLICY, types: { milestone: { ...milestone, requiredKeywords: [] } } };
    expect(decide('I finally got my coffee today, and it was cold again.', { policy, similarity: 0.9 })[0]!.type).toBe('milestone');
    expect(decide('I finally got my coffee today, and it was cold again.', { policy, similarity: 0.2 })[0]!.type).toBe('fact');
  });
});

describe('admission: at most one high-importance label per message', () => {
  it('of two labels that both pass, the first is kept and the second recorded as refused', () => {
    const [d] = decide('I got promoted today and won an award!');
    expect(d).toMatchObject({ verdict: 'admitted', type: 'milestone' });
    expect(gate(d!, 'achievement: one label per message')).toMatchObject({ passed: false, detail: 'already labelled milestone' });
  });

  it('when the first fails its gates, the second may still be taken', () => {
    const [d] = decide('I finally finished my first marathon and won a medal!');
    expect(d).toMatchObject({ verdict: 'retyped', proposedType: 'milestone', type: 'achievement' });
  });

  it('with maxHighImportanceLabels 0, none is taken', () => {
    const [d] = decide('I got the job offer from the Seoul office today!', { policy: { ...POLICY, maxHighImportanceLabels: 0 } });
    expect(d).toMatchObject({ verdict: 'retyped', type: 'fact' });
    expect(gate(d!, 'milestone: one label per message')).toMatchObject({ passed: false, detail: 'the message already carries 0 high-importance label(s)' });
  });

  it('the limit holds across the candidates of one message', () => {
    const candidates = [0, 1].map((i) => ({
      memoryKind: 'prose' as const,
      subject: null,
      relation: null,
      value: null,
      cardinality: null,
      labels: ['milestone'],
      text: `We got engaged last night, part ${i}.`,
      validFrom: new Date(),
      core: false,
      rule: 'test',
    }));
    const [first, second] = admit({ candidates, policy: POLICY, language: 'en', similarity: () => 0.9 });
    expect(first!.type).toBe('milestone');
    expect(second).toMatchObject({ verdict: 'retyped', type: 'fact' });
  });
});

describe('admission: the dev scenarios, end to end without the ledger', () => {
  it.each([
    ['How do I reset my password?', []],
    ['내 이메일 주소 뭐였지?', []],
    ['I moved to Daejeon last week.', ['profile']],
    ['My email address is now minji@newmail.example.', ['profile']],
    ['나 이번 주에 대전으로 이사했어.', ['profile']],
    ['*smiles softly and leans closer*', []],
    ['Thanks, that fixed it!', []],
    ['haha ok', []],
    ['I got the job offer from the Seoul office today!', ['milestone']],
    ['You said I live in Busan, right?', []],
  ])('%s → %j', (text, types) => {
    expect(stored(text)).toEqual(types);
  });

  it("the assistant's guess about the user is stored as about the user", () => {
    const [d] = decide('Your favourite colour is probably blue.', { speaker: 'assistant' });
    expect(d).toMatchObject({ type: 'preference', candidate: { subject: 'user', relation: 'favourite colour', value: 'blue' } });
  });
});

describe('admission: helpers', () => {
  it('similarityNeeded: only the types whose keyword gate passes', () => {
    const triage = triageMessage('I got promoted today and won an award!');
    const cues = { milestone: milestone.cues, achievement: achievement.cues };
    const candidates = extractCandidates({ text: 'I got promoted today and won an award!', speaker: 'user', at: new Date(), triage, cues });
    expect(similarityNeeded(candidates, POLICY, 'en')).toEqual(['milestone', 'achievement']);
    const plain = extractCandidates({ text: 'I finally got my coffee today.', speaker: 'user', at: new Date(), triage: triageMessage('I finally got my coffee today.'), cues });
    expect(similarityNeeded(plain, POLICY, 'en')).toEqual([]);
  });

  it('contentWords leaves out stop words and single letters', () => {
    expect(contentWords('Thanks, that fixed it!')).toEqual(['fixed']);
    expect(contentWords('My email is a@b.example and 8 is a number')).toEqual(['email', 'a@b.example', '8', 'number']);
    expect(contentWords('나 부산으로 이사했어')).toEqual(['부산으로', '이사했어']);
  });

  it('a decision carries the candidate without its labels', () => {
    const [d] = decide('I live in Seoul.');
    expect(d!.candidate).not.toHaveProperty('labels');
  });
});

describe('admission: long input', () => {
  // A pattern that backtracks catastrophically takes seconds or hours on input like this: each
  // case only has to finish (within two seconds, about a hundred times what it takes here) and
  // say the same twice. How fast the write path is lives in `npm run bench:ingest`, not in a unit
  // test.
  it.each([
    ['long prose with cue words', 'I finally got the job offer today and we got engaged, which was special. '.repeat(70)],
    ['asterisks', '*a* '.repeat(1300)],
    ['one open asterisk', `*${'smiles '.repeat(750)}`],
  ])(
    '%s (5,000+ characters): triage, extraction and admission finish',
    (_, text) => {
      expect(text.length).toBeGreaterThanOrEqual(5000);
      expect(decide(text)).toEqual(decide(text));
    },
    2_000,
  );
});
