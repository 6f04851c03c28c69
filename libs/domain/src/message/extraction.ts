/**
 * Extraction: candidate memories from a message's statements. Triples where a rule recognises
 * the sentence (identity and contact facts, places, employers, preferences, "X is set to Y"
 * config facts, Korean "…는 …이야"), otherwise one prose candidate. Rules name the relation
 * from the sentence's frame, never from its value, so two sentences that differ only in their
 * value give the same key and supersession works. Prose gets the type labels that the policy's
 * cue words propose; the admission gates decide which label, if any, it keeps.
 */
import type { Speaker } from '../memory';
import type { Language, Triage } from './triage';

export interface Candidate {
  memoryKind: 'fact' | 'prose';
  subject: string | null;
  relation: string | null;
  value: string | null;
  cardinality: 'one' | 'many' | null;
  /** Proposed types, best first: a triple's rule gives one; cue words may give prose several. */
  labels: string[];
  /** The sentence(s) it came from, verbatim. */
  text: string;
  /** When it became true: the message's time, moved back by a phrase such as "last week". */
  validFrom: Date;
  core: boolean;
  /** The rule that produced it. */
  rule: string;
}

export interface ExtractionInput {
  text: string;
  speaker: Speaker;
  at: Date;
  triage: Triage;
  /** Per type, the cue words that make a prose statement a candidate for that type. */
  cues: Record<string, string[]>;
}

const DAY = 86_400_000;

/** Relative time phrases and how far back they move the valid time. */
const TIME_PHRASES: [RegExp, (m: RegExpMatchArray) => number][] = [
  [/\b(\d+)\s+(day|week|month|year)s?\s+ago\b/i, (m) => Number(m[1]) * ({ day: 1, week: 7, month: 30, year: 365 } as Record<string, number>)[m[2]!.toLowerCase()]! * DAY],
  [/\blast\s+(week|weekend)\b|지난\s*주/i, () => 7 * DAY],
  [/\blast\s+month\b|지난\s*달/i, () => 30 * DAY],
  [/\blast\s+year\b|작년/i, () => 365 * DAY],
  [/\b(?:yesterday|last night)\b|어제/i, () => DAY],
  [/\b(?:today|this\s+(?:week|morning|afternoon|evening|month|year)|tonight|just now)\b|오늘|이번\s*주|이번\s*달|올해/i, () => 0],
];

const TIME_WORDS =
  /\s*(?:,\s*)?\b(?:\d+\s+(?:day|week|month|year)s?\s+ago|last\s+(?:week|weekend|month|year|night)|yesterday|today|tonight|recently|this\s+(?:week|morning|afternoon|evening|month|year)|just now|now|at last|finally)\b.*$/i;

export function validFromOf(text: string, at: Date): Date {
  for (const [pattern, back] of TIME_PHRASES) {
    const m = text.match(pattern);
    if (m) return new Date(at.getTime() - back(m));
  }
  return at;
}

/** Korean city and province names, stored in their usual romanisation so both languages meet on one value. */
const KO_PLACES: Record<string, string> = {
  서울: 'Seoul', 부산: 'Busan', 대전: 'Daejeon', 대구: 'Daegu', 인천: 'Incheon', 광주: 'Gwangju', 울산: 'Ulsan',
  세종: 'Sejong', 제주: 'Jeju', 제주도: 'Jeju', 수원: 'Suwon', 성남: 'Seongnam', 판교: 'Pangyo', 분당: 'Bundang',
  창원: 'Changwon', 전주: 'Jeonju', 청주: 'Cheongju', 천안: 'Cheonan', 포항: 'Pohang', 강릉: 'Gangneung',
  춘천: 'Chuncheon', 원주: 'Wonju', 여수: 'Yeosu', 경주: 'Gyeongju', 김해: 'Gimhae', 고양: 'Goyang', 용인: 'Yongin',
};

export function canonicalPlace(value: string): string {
  const bare = value.replace(/(?:특별시|광역시|특별자치시|시)$/, '');
  return KO_PLACES[bare] ?? KO_PLACES[value] ?? value;
}

/** Relation names: one name for the ways people say it, in English and Korean. */
const RELATION_SYNONYMS: [RegExp, string][] = [
  [/^(?:e-?mail|e-?mail address|mail address|email id|이메일|이메일 주소|메일|메일 주소)$/, 'email'],
  [/^(?:phone|phone number|mobile|mobile number|cell|cell number|number|전화|전화번호|휴대폰|휴대폰 번호|핸드폰 번호)$/, 'phone number'],
  [/^(?:name|full name|이름)$/, 'name'],
  [/^(?:address|home address|주소|집 주소)$/, 'address'],
  [/^(?:birthday|date of birth|birth date|생일)$/, 'birthday'],
  [/^(?:job|occupation|profession|직업)$/, 'job'],
  [/^(?:직장|회사)$/, 'works at'],
];

export function canonicalRelation(phrase: string): string {
  const r = phrase
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\bfavorite\b/g, 'favourite')
    .replace(/\bcolor\b/g, 'colour');
  for (const [pattern, name] of RELATION_SYNONYMS) if (pattern.test(r)) return name;
  return r;
}

/**
 * Who the user is, where they live and work: the few facts an agent should always have at hand,
 * so they go to the always-on profile channel (bounded by its own budget). Everything else is
 * recalled only when a query calls for it.
 */
export const CORE_RELATIONS: ReadonlySet<string> = new Set(['name', 'lives in', 'works at', 'job']);

/** The type a triple's relation gives its memory. */
export function typeOfRelation(relation: string): string {
  if (/^(?:likes|dislikes)$|^favourite\b|선호/.test(relation)) return 'preference';
  if (/^(?:name|email|phone number|address|birthday|lives in|works at|job)$/.test(relation)) return 'profile';
  return 'fact';
}

/** Nouns that name an attribute of a thing ("payment service port"): the relation of a config fact. */
const ATTRIBUTE_NOUNS = new Set(
  'port host hostname url endpoint version timeout limit size region zone owner lead name address email phone channel window schedule key path level mode database db branch cluster image tag replicas memory cpu budget deadline date time location status plan tier price rate quota capacity 포트 호스트 주소 버전 담당자 리전 일정 채널 경로 이름 상태 마감'.split(
    ' ',
  ),
);

function splitThing(phrase: string): { subject: string; relation: string } {
  const p = phrase.replace(/^(?:the|our|this|that)\s+/i, '').trim();
  const possessive = p.match(/^(.+?)'s\s+(.+)$/);
  if (possessive) return { subject: possessive[1]!, relation: canonicalRelation(possessive[2]!) };
  const words = p.split(/\s+/);
  const last = words[words.length - 1]!;
  if (words.length > 1 && ATTRIBUTE_NOUNS.has(last.toLowerCase())) return { subject: words.slice(0, -1).join(' '), relation: canonicalRelation(last) };
  return { subject: p, relation: 'is' };
}

const PRONOUN_VALUE = /^(?:you|it|that|this|them|him|her|me|us|those|these|to\b)/i;

/** The value as said, without hedges, time phrases, trailing clauses and punctuation; null if it is not a value. */
export function cleanValue(raw: string): string | null {
  const v = raw
    .replace(/^(?:now|still|actually|probably|definitely|really|officially|currently|just)\s+/i, '')
    .replace(/^(?:now|still|actually|probably|definitely|really|officially|currently|just)\s+/i, '')
    .replace(TIME_WORDS, '')
    .replace(/\s+(?:and|but|so|because|since|which|where|though)\s+.*$/i, '')
    .replace(/[,;:]\s.*$/, '')
    .replace(/[\s.!?。！？~…]+$/u, '')
    .replace(/^["'“‘]|["'”’]$/g, '')
    .trim();
  if (!v || v.length > 80 || v.split(/\s+/).length > 8 || PRONOUN_VALUE.test(v)) return null;
  return v;
}

const stripStage = (s: string): string => s.replace(/\*[^*]*\*/g, ' ').replace(/\s+/g, ' ').trim();

interface Triple {
  subject: string;
  relation: string;
  value: string;
  cardinality: 'one' | 'many';
  rule: string;
}

type Rule = (s: string, who: { self: string; other: string }) => Triple | null;

const LEAD = String.raw`^(?:(?:and|so|btw|by the way|also|oh|well|ok|okay|anyway|fyi|actually|just so you know)[,!]?\s+)*`;

const EN_RULES: Rule[] = [
  (s, who) => {
    const m = s.match(new RegExp(`${LEAD}(my|your)\\s+([a-z][a-z' -]{0,40}?)\\s+(?:is|are|has changed to|changed to|is changing to)\\s+(.+)$`, 'i'));
    const value = m && cleanValue(m[3]!);
    if (!m || !value) return null;
    const relation = canonicalRelation(m[2]!);
    return { subject: m[1]!.toLowerCase() === 'my' ? who.self : who.other, relation, value, cardinality: 'one', rule: 'en: my X is Y' };
  },
  (s, who) => {
    const m = s.match(new RegExp(`${LEAD}(i|we|you)\\s+(?:have\\s+|'ve\\s+|just\\s+|recently\\s+|finally\\s+)*(?:moved|relocated)\\s+(?:back\\s+)?(?:to|into)\\s+(.+)$`, 'i'));
    const value = m && cleanValue(m[2]!);
    if (!m || !value) return null;
    return { subject: m[1]!.toLowerCase() === 'you' ? who.other : who.self, relation: 'lives in', value, cardinality: 'one', rule: 'en: I moved to Y' };
  },
  (s, who) => {
    const m = s.match(new RegExp(`${LEAD}(i|you)\\s+(?:now\\s+|still\\s+|currently\\s+)?(?:live|am living|'m living|are living|'re living)\\s+in\\s+(.+)$`, 'i'));
    const value = m && cleanValue(m[2]!);
    if (!m || !value) return null;
    return { subject: m[1]!.toLowerCase() === 'you' ? who.other : who.self, relation: 'lives in', value, cardinality: 'one', rule: 'en: I live in Y' };
  },
  (s, who) => {
    const m = s.match(
      new RegExp(`${LEAD}(i|you)\\s+(?:now\\s+|currently\\s+|still\\s+|just\\s+)?(?:work|am working|'m working|are working|'re working|started working)\\s+(?:at|for)\\s+(.+)$`, 'i'),
    );
    const value = m && cleanValue(m[2]!);
    if (!m || !value) return null;
    return { subject: m[1]!.toLowerCase() === 'you' ? who.other : who.self, relation: 'works at', value, cardinality: 'one', rule: 'en: I work at Y' };
  },
  (s, who) => {
    const m = s.match(new RegExp(`${LEAD}(?:call me|i'm called|i am called|people call me)\\s+(\\p{Lu}[\\p{L}'-]*)`, 'iu'));
    return m ? { subject: who.self, relation: 'name', value: m[1]!, cardinality: 'one', rule: 'en: call me Y' } : null;
  },
  (s, who) => {
    const m = s.match(new RegExp(`${LEAD}(i|you)\\s+(?:really\\s+|absolutely\\s+|also\\s+)?(don't like|do not like|dislike|hate|can't stand|like|love|enjoy|prefer)\\s+(.+)$`, 'i'));
    const value = m && cleanValue(m[3]!);
    if (!m || !value) return null;
    const negative = /^(?:don't|do not|dislike|hate|can't)/i.test(m[2]!);
    return { subject: m[1]!.toLowerCase() === 'you' ? who.other : who.self, relation: negative ? 'dislikes' : 'likes', value, cardinality: 'many', rule: 'en: I like Y' };
  },
  (s) => {
    const m = s.match(new RegExp(`${LEAD}(.+?)\\s+(?:is|are|was|has been|have been)\\s+(?:now\\s+)?set\\s+to\\s+(.+)$`, 'i'));
    const value = m && cleanValue(m[2]!);
    if (!m || !value || /^(?:i|we|you|it|this|that|my|your)$/i.test(m[1]!)) return null;
    return { ...splitThing(m[1]!), value, cardinality: 'one', rule: 'en: X is set to Y' };
  },
  (s) => {
    const m = s.match(new RegExp(`${LEAD}(.+?)\\s+(?:has\\s+|have\\s+)?moved\\s+to\\s+(.+)$`, 'i'));
    if (!m || /^(?:i|we|you|they|he|she|my|your)\b/i.test(m[1]!)) return null;
    const value = cleanValue(m[2]!);
    if (!value) return null;
    const thing = splitThing(m[1]!);
    const attribute = value.match(/^(\S+)\s+(.+)$/);
    if (attribute && ATTRIBUTE_NOUNS.has(attribute[1]!.toLowerCase())) return { subject: m[1]!.replace(/^(?:the|our)\s+/i, ''), relation: canonicalRelation(attribute[1]!), value: attribute[2]!, cardinality: 'one', rule: 'en: X moved to Y' };
    return { subject: thing.relation === 'is' ? thing.subject : `${thing.subject} ${thing.relation}`, relation: 'location', value, cardinality: 'one', rule: 'en: X moved to Y' };
  },
  (s) => {
    const m = s.match(new RegExp(`${LEAD}(.+?)\\s+(?:is|are)\\s+now\\s+(.+)$`, 'i'));
    if (!m || /^(?:i|we|you|it|this|that|there|he|she|they)$/i.test(m[1]!)) return null;
    const value = cleanValue(m[2]!);
    return value ? { ...splitThing(m[1]!), value, cardinality: 'one', rule: 'en: X is now Y' } : null;
  },
];

const KO_COPULA = /(?:이었어|였어|이야|이에요|예요|입니다|이다|야|로 바뀌었어|으로 바뀌었어|로 바꿨어|으로 바꿨어|로 바뀌었다|으로 바뀌었다)$/;

const KO_RULES: Rule[] = [
  (s, who) => {
    const m = s.match(/(\S+?)(?:으로|로)\s*(?:이사(?:를)?\s*(?:했|갔|왔|했어|갔어|왔어)|이사했|옮겼)/);
    if (!m) return null;
    return { subject: who.self, relation: 'lives in', value: canonicalPlace(m[1]!), cardinality: 'one', rule: 'ko: Y로 이사했어' };
  },
  (s, who) => {
    const m = s.match(/(\S+?)에\s*(?:살아|살고\s*있|삽니다|살아요|산다)/);
    if (!m || /^(?:어디|여기|거기)$/.test(m[1]!)) return null;
    return { subject: who.self, relation: 'lives in', value: canonicalPlace(m[1]!), cardinality: 'one', rule: 'ko: Y에 살아' };
  },
  (s, who) => {
    const m = s.match(/(\S+?)(?:에서\s*(?:일해|일하고|일합니다|일한다|근무)|에\s*(?:다녀|다니고|입사했|취직했))/);
    if (!m || /^(?:어디|여기|거기|집)$/.test(m[1]!)) return null;
    return { subject: who.self, relation: 'works at', value: m[1]!, cardinality: 'one', rule: 'ko: Y에서 일해' };
  },
  (s, who) => {
    const bare = s.replace(/[.!~。！\s]+$/u, '');
    const m = bare.match(/^(?:(?:(내|제|나의|저의|네|너의)\s*)|(?:나|저)\s+)?(.+?)(?:은|는)\s+(.+)$/);
    if (!m || !KO_COPULA.test(m[3]!)) return null;
    const value = m[3]!.replace(KO_COPULA, '').trim();
    if (!value || value.split(/\s+/).length > 6) return null;
    if (m[1]) {
      const relation = canonicalRelation(m[2]!);
      return { subject: /^(?:네|너의)$/.test(m[1]) ? who.other : who.self, relation, value, cardinality: 'one', rule: 'ko: 내 X는 Y야' };
    }
    const words = m[2]!.trim().split(/\s+/);
    const thing = words.length > 1 ? { subject: words.slice(0, -1).join(' '), relation: canonicalRelation(words[words.length - 1]!) } : { subject: words[0]!, relation: 'is' };
    return { ...thing, value, cardinality: 'one', rule: 'ko: X는 Y이다' };
  },
];

/** First and second person, as the speaker means them: the user's "my" and the assistant's "your" are the user. */
function persons(speaker: Speaker): { self: string; other: string } {
  if (speaker === 'assistant') return { self: 'assistant', other: 'user' };
  if (speaker === 'user') return { self: 'user', other: 'assistant' };
  return { self: speaker, other: 'user' };
}

function matchesCue(text: string, cue: string, language: Language): boolean {
  const c = cue.toLowerCase();
  if (/[\uac00-\ud7a3]/.test(c) || language === 'ko') return text.toLowerCase().includes(c);
  return new RegExp(`(?<![\\p{L}\\p{N}])${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/** Whether any of the words or phrases appears: whole words in English, substrings in Korean. */
export function containsAny(text: string, words: string[], language: Language): string | null {
  return words.find((w) => matchesCue(text, w, language)) ?? null;
}

export function extractCandidates(input: ExtractionInput): Candidate[] {
  const { triage, at } = input;
  const who = persons(input.speaker);
  const statements = triage.sentences.filter((s) => s.act === 'statement');
  const rules = triage.language === 'ko' ? KO_RULES : EN_RULES;
  const triples: Candidate[] = [];
  const rest: string[] = [];
  for (const sentence of statements) {
    const plain = stripStage(sentence.text);
    let found: Triple | null = null;
    for (const rule of plain ? rules : []) {
      found = rule(plain.replace(/[.!。！~]+$/u, ''), who);
      if (found) break;
    }
    if (!found) {
      rest.push(sentence.text);
      continue;
    }
    triples.push({
      memoryKind: 'fact',
      subject: found.subject,
      relation: found.relation,
      value: found.value,
      cardinality: found.cardinality,
      labels: [typeOfRelation(found.relation)],
      text: sentence.text,
      validFrom: validFromOf(plain, at),
      core: CORE_RELATIONS.has(found.relation) && found.subject === 'user',
      rule: found.rule,
    });
  }
  if (triples.length > 0 || rest.length === 0) return triples;
  const text = rest.join(' ');
  const labels = Object.entries(input.cues)
    .filter(([, cues]) => containsAny(stripStage(text), cues, triage.language) !== null)
    .map(([type]) => type);
  return [
    {
      memoryKind: 'prose',
      subject: null,
      relation: null,
      value: null,
      cardinality: null,
      labels,
      text,
      validFrom: validFromOf(text, at),
      core: false,
      rule: labels.length ? `prose, labelled by cue words (${labels.join(', ')})` : 'prose: no rule found a triple',
    },
  ];
}
