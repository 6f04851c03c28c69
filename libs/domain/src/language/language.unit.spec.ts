import { en, endingPattern, ko, LANGUAGES, oneOf } from './index';

describe('the language home', () => {
  it('registers every language by its code', () => {
    for (const [code, language] of Object.entries(LANGUAGES)) expect(language.code).toBe(code);
    expect(Object.keys(LANGUAGES).sort()).toEqual(['en', 'ko']);
  });

  it('gives every language what every rule reads', () => {
    for (const language of Object.values(LANGUAGES)) {
      expect(language.stopwords.length).toBeGreaterThan(0);
      expect(language.timeWords.length).toBeGreaterThan(0);
      expect(Object.keys(language.numberWords).length).toBeGreaterThan(0);
      for (const cue of Object.values(language.changeCues)) expect(cue).toBeInstanceOf(RegExp);
      for (const cue of Object.values(language.moodCues)) expect(cue).toBeInstanceOf(RegExp);
    }
  });

  it('keeps one English stopword list: each purpose adds words beside it, never one of its own', () => {
    const base = new Set(en.stopwords);
    for (const additions of [en.functionWords, en.statementFillerWords, en.queryFillerWords, en.chatFillerWords]) {
      expect(additions.filter((w) => base.has(w))).toEqual([]);
    }
    // A statement's slot and a query's terms share the function words; each has its own fillers.
    expect(en.statementFillerWords.filter((w) => en.functionWords.includes(w) || en.queryFillerWords.includes(w))).toEqual([]);
  });

  it('lists every word of a list once', () => {
    const lists: (readonly string[])[] = [
      en.stopwords,
      en.functionWords,
      en.statementFillerWords,
      en.queryFillerWords,
      en.chatFillerWords,
      en.changeWords,
      ko.stopwords,
      ...Object.values(ko.particles),
    ];
    for (const list of lists) expect(new Set(list).size).toBe(list.length);
    const particles = Object.values(ko.particles).flat();
    expect(new Set(particles).size).toBe(particles.length);
  });

  it('builds a Korean ending pattern from the particle groups a rule takes', () => {
    const topicOrSubject = endingPattern([...ko.particles.topic, ...ko.particles.subject]);
    expect('집은'.replace(topicOrSubject, '')).toBe('집');
    expect('회사가'.replace(topicOrSubject, '')).toBe('회사');
    expect(topicOrSubject.test('서울로')).toBe(false);
    // Anchored at the end, the longest ending wins whatever the order: "으로", not "로".
    expect('광주으로'.replace(endingPattern([...ko.particles.direction].reverse()), '')).toBe('광주');
    expect(oneOf(ko.particles.topic, ko.particles.subject)).toBe('은|는|이|가');
  });
});
