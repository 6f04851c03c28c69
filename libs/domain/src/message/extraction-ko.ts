/**
 * Extraction's Korean rules, pure: "Y로 이사했어", "Y에 살아", "Y에서 일해", "Y를 좋아해", "X를 Y로
 * 바꿨어" and "X는 Y야", each only when the speaker says it of themselves (someone else's news
 * stays prose). The words (particles, places, people) are the language's (../language/ko.ts).
 */
import { endingPattern, ko, oneOf } from '../language';
import { ATTRIBUTE_NOUNS, canonicalPlace, canonicalRelation, type Persons, plausible, PROFILE_RELATIONS, type Rule, type Triple } from './relations';

const { particles: P } = ko;

/** People of the speaker's, and third-person pronouns: a topic that is one is no thing's. */
const KO_PERSON_NOUN = new RegExp(`^(?:${ko.personNouns.join('|')})$`);

/**
 * Korean: a subject other than the speaker before the fact ("친구가 부산으로 이사했어", "형은 서울에
 * 살아") makes it someone else's news. Words with a subject or topic particle count, except the
 * speaker ("나는", "내가", "우리는") and time words ("요즘은", "작년에는").
 */
const KO_MARKED = endingPattern([...ko.particles.subject, ...ko.particles.topic, ...ko.particles.honorificSubject, ...ko.particles.also]);
const KO_SELF_OR_TIME = new RegExp(`^(?:${ko.selfOrTimeWords.join('|')})$|(?:에는|에도|부터는?)$`);

/** "는" also ends a verb that describes a noun ("좋아하는 색", "사는 곳"): no subject there. */
const KO_ADNOMINAL = endingPattern(ko.adnominalVerbs);
/** Adjectives whose describing form ends in 은 ("작은 강아지", "좋은 차"): no topic either. */
const KO_ADJECTIVE_EUN = new RegExp(`(?:${ko.eunAdjectiveStems.join('|')})은$`, 'u');

function someoneElse(before: string): boolean {
  return before.split(/\s+/).some((w) => w !== '' && KO_MARKED.test(w) && !KO_SELF_OR_TIME.test(w) && !KO_ADNOMINAL.test(w) && !KO_ADJECTIVE_EUN.test(w));
}

/** A Korean fact rule: the pattern, where it may not apply (someone else's news), and the triple. */
function koRule(pattern: RegExp, build: (m: RegExpMatchArray, who: Persons) => Triple | null): Rule {
  return (s, who) => {
    const m = s.match(pattern);
    if (!m || someoneElse(s.slice(0, m.index))) return null;
    return build(m, who);
  };
}

/**
 * The words that describe what follows them ("매운 음식", "비싼 차", "제일 좋아하는 운동화"): an
 * adnominal form, whose last syllable closes with ㄴ or ㄹ, and neither the speaker nor a time
 * ("나는", "요즘은"). Those right before the match, with a space after each.
 */
function modifiersBefore(m: RegExpMatchArray): string {
  const words = m.input!.slice(0, m.index).trim().split(/\s+/).filter(Boolean);
  const kept: string[] = [];
  for (const word of words.reverse()) {
    const last = word.charCodeAt(word.length - 1) - 0xac00;
    const closes = last >= 0 && last < 11172 && (last % 28 === 4 || last % 28 === 8);
    // A word ending in 은/는 is a topic ("나는", "커피는") unless it is a verb's or an adjective's form ("좋아하는", "작은").
    const topic = /[은는]$/u.test(word) && !KO_ADNOMINAL.test(word) && !KO_ADJECTIVE_EUN.test(word);
    if (!closes || topic || KO_SELF_OR_TIME.test(word)) break;
    kept.unshift(word);
    if (kept.length === 2) break;
  }
  return kept.map((w) => `${w} `).join('');
}

/** Not a value: a question word, a pronoun, somewhere unnamed ("회사 근처"). */
const KO_NOT_A_VALUE = new RegExp(`^(?:${ko.unnamedPlaces.join('|')})$|(?:근처|쪽|옆|앞|뒤)$`);
/** A done move: not a wish ("이사했으면"), a time clause ("이사했을 때"), or a relative clause ("이사했던"). */
const KO_DONE = String.raw`(?!으면|다면|더라면|을\s*때|던|을까)`;
const KO_MOVED = new RegExp(String.raw`(\S+?)(?:${oneOf(P.direction)})\s*(이사\s*(?:를\s*)?(?:했|갔|왔)|옮겼)${KO_DONE}`);
/** "서울에 살아", "서울에서 살고 있어"; not "살아야 해" (must), "살아보고 싶어" (would like to). */
const KO_LIVES = new RegExp(String.raw`(\S+?)(?:${oneOf(P.placeOfAction, P.place)})\s*(?:살아(?!야|보|볼|도)|살고\s*있|삽니다|산다|살거든|사는\s*중)`);
const KO_WORKS = new RegExp(
  String.raw`(\S+?)(?:에서\s*(?:일해(?!야|보|도)|일하고\s*있|일합니다|일한다|근무(?:해|하고\s*있|합니다|한다|\s*중))|에\s*(?:다녀(?!왔|오|올|갔|야|보)|다니고\s*있|다닙니다|다닌다|(?:입사|취직)했${KO_DONE}))`,
);
const KO_LIKES = new RegExp(
  String.raw`(\S+?)(?:${oneOf(P.object)})\s*(?:(?:정말|진짜|너무|제일|가장|많이|엄청|완전|아주|좀)\s*)*(안\s*좋아해|좋아해|좋아합니다|좋아한다|좋아하거든|사랑해|싫어해|싫어합니다|싫어한다|싫어하거든)(?!야|보|도)`,
);
/** "X를 Y로 바꿨어": a change the speaker made to a thing. */
const KO_CHANGED = new RegExp(String.raw`^(.+?)(?:${oneOf(P.object)})\s+(\S+?)(?:${oneOf(P.direction)})\s*(?:바꿨|변경했|설정했|올렸|내렸)${KO_DONE}`);
/** The endings of "X는 Y이야": the copula, and "Y로 바뀌었어" (it changed to Y). */
const { copula: C } = ko;
const KO_COPULA = new RegExp(String.raw`\s*(?:${[...C.pastPlain, ...C.present, ...C.joining, ...C.short].join('|')}|(?:${ko.particles.direction.join('|')})\s*(?:${ko.changedTo.join('|')}))$`);
/**
 * "X는 Y", and "X가 Y" where X names its attribute ("포트가", "내 이메일이"). The topic is the
 * longest: "는" also ends a verb inside it ("제일 좋아하는 색은 파랑이야").
 */
const KO_TOPIC = new RegExp(String.raw`^(?:(내가|제가|내|제|나의|저의|네|너의|당신의)\s+|(?:나|저)\s+)?(.+)(?:${oneOf(P.topic)})\s+(.+)$`);
const KO_SUBJECT = new RegExp(String.raw`^(?:(내|제|나의|저의|네|너의|당신의)\s+|(?:나|저)\s+)?(.+?)(?:${oneOf(P.subject)})\s+(.+)$`);
const KO_PRONOUN = /^(?:나|저|난|전|너|넌|우리|우린|당신)$/;

/** A Korean value: without the copula, "8000번" as 8000, a city in its romanisation; null when negated. */
function koValue(raw: string): string | null {
  const v = raw
    .replace(/[.!~。！\s]+$/u, '')
    .replace(KO_COPULA, '')
    .replace(/^(\d+)\s*번$/, '$1')
    .trim();
  if (!v || v.split(/\s+/).length > 6 || /(?:아니|아닙니|아님)$/.test(v) || KO_NOT_A_VALUE.test(v)) return null;
  return canonicalPlace(v);
}

function koTopic(s: string, who: Persons): Triple | null {
  const bare = s.replace(/[.!~。！\s]+$/u, '');
  if (!KO_COPULA.test(bare)) return null;
  const topic = bare.match(KO_TOPIC);
  // A subject particle only where the phrase names an attribute or is the speaker's.
  const subject = topic ? null : bare.match(KO_SUBJECT);
  const m = topic ?? subject;
  if (!m) return null;
  const value = koValue(m[3]!);
  const phrase = m[2]!.trim();
  if (!value || someoneElse(phrase) || !plausible(canonicalRelation(phrase), value)) return null;
  const rule = 'ko: 내 X는 Y야';
  if (m[1]) {
    return { subject: /^(?:네|너의|당신의)$/.test(m[1]) ? who.other : who.self, relation: canonicalRelation(phrase), value, cardinality: 'one', rule };
  }
  const whole = canonicalRelation(phrase);
  if (PROFILE_RELATIONS.test(whole) || whole.startsWith('favourite ')) return { subject: who.self, relation: whole, value, cardinality: 'one', rule };
  const words = phrase.split(/\s+/);
  const last = words[words.length - 1]!;
  if (words.length === 1 || KO_PRONOUN.test(words[0]!) || KO_PERSON_NOUN.test(last) || (subject && !ATTRIBUTE_NOUNS.has(last))) return null;
  return { subject: words.slice(0, -1).join(' '), relation: canonicalRelation(last), value, cardinality: 'one', rule: 'ko: X는 Y이다' };
}

export const KO_RULES: Rule[] = [
  koRule(KO_MOVED, (m, who) => {
    const value = koValue(m[1]!);
    // "옮겼" (moved) is a move of home only to a named city: "포트를 9000으로 옮겼어" is not.
    if (!value || (m[2] === '옮겼' && value === m[1])) return null;
    return { subject: who.self, relation: 'lives in', value, cardinality: 'one', rule: 'ko: Y로 이사했어' };
  }),
  koRule(KO_LIVES, (m, who) => {
    const value = koValue(m[1]!);
    return value ? { subject: who.self, relation: 'lives in', value, cardinality: 'one', rule: 'ko: Y에 살아' } : null;
  }),
  koRule(KO_WORKS, (m, who) => {
    const value = koValue(m[1]!);
    return value ? { subject: who.self, relation: 'works at', value, cardinality: 'one', rule: 'ko: Y에서 일해' } : null;
  }),
  koRule(KO_LIKES, (m, who) => {
    const value = koValue(`${modifiersBefore(m)}${m[1]!}`);
    if (!value) return null;
    const negative = /싫어|안/.test(m[2]!);
    return { subject: who.self, relation: negative ? 'dislikes' : 'likes', value, cardinality: 'many', rule: 'ko: Y를 좋아해' };
  }),
  koRule(KO_CHANGED, (m, who) => {
    const value = koValue(m[2]!);
    const phrase = m[1]!.trim();
    const mine = phrase.match(/^(?:내|제|나의|저의)\s+(.+)$/);
    if (!value) return null;
    if (mine) return { subject: who.self, relation: canonicalRelation(mine[1]!), value, cardinality: 'one', rule: 'ko: X를 Y로 바꿨어' };
    const words = phrase.split(/\s+/);
    if (words.length < 2 || someoneElse(phrase)) return null;
    return { subject: words.slice(0, -1).join(' '), relation: canonicalRelation(words[words.length - 1]!), value, cardinality: 'one', rule: 'ko: X를 Y로 바꿨어' };
  }),
  koTopic,
];
