import { cleanQuery, contentTerms, distinctiveTerms, needsTrigrams, relatedPair, speaksInFirstPerson, splitIntents } from './query-hygiene';

describe('query hygiene', () => {
  it('strips the persona address terms, whole words only', () => {
    const q = cleanQuery('Hey Socrates, what do you know about Socratesville?', { addressTerms: ['Socrates'] });
    expect(q.text).toBe('Hey , what do you know about Socratesville?');
    expect(q.terms).toEqual(['socratesville']);
  });

  it('splits a message that asks several things, and keeps a single question whole', () => {
    expect(splitIntents('Where do I live now? And which port does the API use?')).toEqual(['Where do I live now?', 'And which port does the API use?']);
    expect(splitIntents('I moved. Where do I live now?')).toEqual(['I moved. Where do I live now?']);
  });

  it('searches each of two things a question relates on its own, beside the whole question', () => {
    expect(splitIntents('How long was it between when I moved to Busan and when I started the new job?')).toEqual([
      'How long was it between when I moved to Busan and when I started the new job?',
      'I moved to Busan',
      'I started the new job',
    ]);
    // A side may hold an "and" of its own when both sides start with "when".
    expect(relatedPair('How many days passed between when I read up on sorting and searching, and when I passed the quiz?')).toEqual(['I read up on sorting and searching', 'I passed the quiz']);
    expect(relatedPair('What is the difference between the staging cluster and the production one?')).toEqual(['the staging cluster', 'the production one']);
    expect(relatedPair('Which came first: the marathon in Seoul, or the half marathon in Jeju?')).toEqual(['the marathon in Seoul', 'the half marathon in Jeju']);
  });

  it('relates no pair where a side has no content word, or the question names none', () => {
    expect(relatedPair('Is the standup between 9 and 10?')).toBeNull();
    expect(relatedPair('Where do I live and which port does the API use?')).toBeNull();
    expect(splitIntents('When did I move to Busan?')).toEqual(['When did I move to Busan?']);
  });

  it('keeps identifiers, paths, versions and Korean words as content terms, and drops stopwords and one-letter words', () => {
    expect(contentTerms('Which numpy version do we pin? fetch_user /api/v2/orders 1.26.4')).toEqual(['numpy', 'version', 'pin', 'fetch_user', 'api/v2/orders', '1.26.4']);
    expect(contentTerms('결제 서비스 포트가 몇 번이지?')).toEqual(['결제', '서비스', '포트가', '번이지']);
    expect(contentTerms('hi')).toEqual([]);
  });
});

describe('distinctive terms', () => {
  it('are the words with digits, identifier punctuation, non-Latin letters or an inner capital', () => {
    expect(distinctiveTerms('Which port does the payment service 4821 listen on?')).toEqual(['4821']);
    expect(distinctiveTerms("What is Minji Kim's locker number? Where is fetch_user?")).toEqual(['minji', 'kim', 'fetch_user']);
    expect(distinctiveTerms('결제 서비스 포트가 몇 번이지?')).toEqual(['결제', '서비스', '포트가', '번이지']);
    expect(distinctiveTerms('Which numpy version do we pin?')).toEqual([]);
  });
});

describe('words full text may miss', () => {
  it('are those with a letter outside the Latin script; names, numbers and identifiers are not', () => {
    expect(['포트가', '서울에', 'Zürich'].map(needsTrigrams)).toEqual([true, true, false]);
    expect(['minji', '4821', 'fetch_user', 'api/v2/orders', 'db-07.internal'].some(needsTrigrams)).toBe(false);
  });
});

describe('a question in the first person', () => {
  it('speaks of its asker with "I", its contractions, "my", "mine" or "myself", as words of their own', () => {
    expect(
      ['Have I ever used Flask here?', "What's the port I'm on?", 'Which version did my team pin?', 'My flat, where is it?', 'Is the blue one mine?', "I've said it before, haven't I"].every(
        speaksInFirstPerson,
      ),
    ).toBe(true);
  });

  it('does not, when "I" is only part of a word or a name, or the question asks of someone else', () => {
    expect(['What did Caroline paint?', 'Where does Mia live?', 'Is iOS 17 supported?', 'Which myth did we read?', 'Tell me the port'].some(speaksInFirstPerson)).toBe(false);
  });

  it('holds for both sides of a pair its question relates, and for each of several questions on its own', () => {
    // The sides say no "I", but they are clauses of the user's own question.
    const pair = cleanQuery('How many weeks do I have between finishing the transaction features and the final deployment deadline?');
    expect(pair.parts).toEqual([pair.text, 'finishing the transaction features', 'the final deployment deadline']);
    expect(pair.firstPerson).toEqual([true, true, true]);
    expect(cleanQuery('What is the difference between the staging cluster and the production one?').firstPerson).toEqual([false, false, false]);
    expect(cleanQuery('Where do I live now? And which port does the API use?').firstPerson).toEqual([true, false]);
  });
});
