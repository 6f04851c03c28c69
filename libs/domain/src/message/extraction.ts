/**
 * Extraction: candidate memories from a message's statements. Triples where a rule recognises
 * a clause (identity and contact facts, places, employers, preferences, "X is set to Y" config
 * facts, Korean "…는 …이야"), otherwise one prose candidate. Rules name the relation from the
 * clause's frame, never from its value, so two sentences that differ only in their value give
 * the same key and supersession works. Rules only take what the speaker states as true now about
 * themselves or a thing: plans ("I might move"), negations ("I don't live in…"), time clauses
 * ("When I moved…") and other people's news ("My friend moved…") stay prose. Prose gets the type
 * labels that the policy's cue words propose; the admission gates decide which label it keeps.
 */
import type { Speaker } from '../memory';
import * as chrono from 'chrono-node';
import { fixOf } from './fixes';
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
  /** Said as a fix ("typo", "I meant", "Tacoma, not Seattle": resolution.ts fixOf): the value it replaces never held. */
  correction?: true;
}

export interface ExtractionInput {
  text: string;
  speaker: Speaker;
  at: Date;
  triage: Triage;
  /** Per type, the cue words that make a prose statement a candidate for that type. */
  cues: Record<string, string[]>;
}

// ---- valid time -------------------------------------------------------------------------------

const DAY = 86_400_000;
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365, 일: 1, 주: 7, 주일: 7, 달: 30, 개월: 30, 년: 365 };
const AMOUNT_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  'a couple of': 2, 'couple of': 2, 'a few': 3, few: 3,
};
const AMOUNT = String.raw`\d+|a couple of|couple of|a few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten`;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAY = WEEKDAYS.join('|');

/** Korean's own words for a number of days, and its counting words. */
const KO_DAY_COUNTS: Record<string, number> = { 하루: 1, 이틀: 2, 사흘: 3, 나흘: 4, 닷새: 5, 엿새: 6, 이레: 7, 여드레: 8, 아흐레: 9, 열흘: 10, 보름: 15 };
const KO_COUNTS: Record<string, number> = { 한: 1, 두: 2, 세: 3, 네: 4, 다섯: 5 };

const amountOf = (word: string): number => AMOUNT_WORDS[word.toLowerCase().replace(/\s+/g, ' ')] ?? Number(word);
const daysBack = (days: number) => (at: Date) => new Date(at.getTime() - days * DAY);

/** Relative time phrases and where they put the valid time; the first that appears wins. */
const TIME_PHRASES: [RegExp, (m: RegExpMatchArray, at: Date) => Date][] = [
  [new RegExp(String.raw`\b(${AMOUNT})\s+(day|week|month|year)s?\s+ago\b`, 'i'), (m, at) => daysBack(amountOf(m[1]!) * UNIT_DAYS[m[2]!.toLowerCase()]!)(at)],
  [/(\d+)\s*(일|주일|주|달|개월|년)\s*전/, (m, at) => daysBack(Number(m[1]) * UNIT_DAYS[m[2]!]!)(at)],
  // Days counted in Korean's own words ("사흘 전", "이틀 전에"), and "한 달 전", "두 주 전".
  [new RegExp(`(${Object.keys(KO_DAY_COUNTS).join('|')})\\s*(?:전|전에)`, 'u'), (m, at) => daysBack(KO_DAY_COUNTS[m[1]!]!)(at)],
  [/(한|두|세|네|다섯)\s*(주|달|해)\s*전/u, (m, at) => daysBack(KO_COUNTS[m[1]!]! * UNIT_DAYS[m[2] === '해' ? '년' : m[2]!]!)(at)],
  [/\bthe\s+day\s+before\s+yesterday\b|그저께|그제|엊그제/i, (_, at) => daysBack(2)(at)],
  // "last Monday": the latest Monday before the message's day (a week back on a Monday).
  [new RegExp(String.raw`\blast\s+(${WEEKDAY})\b`, 'i'), (m, at) => daysBack(((at.getUTCDay() - WEEKDAYS.indexOf(m[1]!.toLowerCase()) + 6) % 7) + 1)(at)],
  [/\blast\s+(?:week|weekend)\b|(?:지난|저번)\s*주/i, (_, at) => daysBack(7)(at)],
  [/\blast\s+month\b|(?:지난|저번)\s*달/i, (_, at) => daysBack(30)(at)],
  [/\blast\s+year\b|작년|지난\s*해/i, (_, at) => daysBack(365)(at)],
  [/\b(?:yesterday|last night)\b|어제|어젯밤/i, (_, at) => daysBack(1)(at)],
  // "in 2019": from the start of that year, when it is not in the future.
  [/\bin\s+((?:19|20)\d{2})\b|((?:19|20)\d{2})년에/i, (m, at) => {
    const year = Number(m[1] ?? m[2]);
    return year <= at.getUTCFullYear() ? new Date(Date.UTC(year, 0, 1)) : at;
  }],
  [/\b(?<!earlier\s)(?:today|this\s+(?:week|morning|afternoon|evening|month|year)|tonight|just now)\b|오늘|이번\s*주|이번\s*달|올해/i, (_, at) => at],
];

const TIMELY = /\d|\b(?:ago|yesterday|today|tonight|week|weekend|month|year|morning|afternoon|evening|night|last|this|earlier|since)\b/i;
const TIME_PREPOSITIONS = new Set(['in', 'on', 'since', 'during', 'over', 'at', 'from', 'until', 'by', 'early', 'late', 'mid', 'before', 'after', 'back']);

/**
 * The valid time a phrase in the text gives, and the phrase; null when it has none. The phrases
 * above first (Korean's, and English's most common, each tested); then, in English, whatever
 * `chrono-node` reads as a day relative to the message ("over the weekend", "on Friday", "earlier
 * this month"): a maintained parser of English time phrases, rather than a longer list here. A
 * day it reads in the future is a plan, not a start: none.
 */
function timeOf(text: string, at: Date, language: Language = 'en'): { time: Date; phrase: string } | null {
  for (const [pattern, when] of TIME_PHRASES) {
    const m = text.match(pattern);
    if (m) return { time: when(m, at), phrase: m[0] };
  }
  if (language === 'ko' || !/[a-z]/i.test(text)) return null;
  for (const found of chrono.casual.parse(text, { instant: at, timezone: 'UTC' }, { forwardDate: false })) {
    // A month's or a weekday's name alone may be a name ("my sister April", "Wednesday Addams"):
    // a day only with a word of time in it or a preposition before it ("in April", "on Friday").
    const before = text.slice(0, found.index).trimEnd().split(/\s+/).pop()?.toLowerCase() ?? '';
    const first = found.text.split(/\s+/)[0]!.toLowerCase();
    if (!TIMELY.test(found.text) && !TIME_PREPOSITIONS.has(before) && !TIME_PREPOSITIONS.has(first)) continue;
    const time = found.start.date();
    // A weekday or a month named alone is the nearest one, which may be ahead: a change told is
    // behind (the Friday before, last December).
    if (time > at && !found.start.isCertain('year') && found.start.isCertain('month') && !found.start.isCertain('day')) time.setUTCFullYear(time.getUTCFullYear() - 1);
    else if (time > at && found.start.isCertain('weekday') && !found.start.isCertain('day')) time.setUTCDate(time.getUTCDate() - 7);
    if (time.getTime() <= at.getTime()) return { time, phrase: found.text };
    // A day named without its time reads as its noon: today's noon, said before noon, is today.
    if (time.toISOString().slice(0, 10) === at.toISOString().slice(0, 10)) return { time: at, phrase: found.text };
  }
  return null;
}

export function validFromOf(text: string, at: Date, language: Language = 'en'): Date {
  return timeOf(text, at, language)?.time ?? at;
}

/** A time phrase in a value and everything after it: "Daejeon last week" is "Daejeon". */
const TIME_WORDS = new RegExp(
  String.raw`\s*(?:,\s*)?\b(?:(?:${AMOUNT})\s+(?:day|week|month|year)s?\s+ago|the day before yesterday|last\s+(?:week|weekend|month|year|night|${WEEKDAY})|yesterday|today|tonight|recently|lately|these days|nowadays|at the moment|at present|(?:earlier\s+)?this\s+(?:week|weekend|morning|afternoon|evening|month|year)|just now|right now|for now|now|at last|finally|anymore|any more|in\s+(?:19|20)\d{2})\b.*$`,
  'i',
);

// ---- names of places and relations -----------------------------------------------------------

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

/** What a Korean "좋아하는 X" (favourite X) names, in English, so both languages meet on one relation. */
const KO_FAVOURITE_OF: Record<string, string> = {
  색: 'colour', 색깔: 'colour', 음식: 'food', 음악: 'music', 영화: 'movie', 노래: 'song', 가수: 'singer', 책: 'book',
  동물: 'animal', 운동: 'sport', 스포츠: 'sport', 과일: 'fruit', 음료: 'drink', 계절: 'season', 게임: 'game', 도시: 'city',
};

/** Relation names: one name for the ways people say it, in English and Korean. */
const RELATION_SYNONYMS: [RegExp, string][] = [
  [/^(?:e-?mail|e-?mail address|mail address|email id|이메일|이메일 주소|메일|메일 주소)$/, 'email'],
  [/^(?:phone|phone number|mobile|mobile number|cell|cell number|cellphone number|number|전화|전화번호|전화 번호|휴대폰|휴대폰 번호|핸드폰 번호|번호|연락처)$/, 'phone number'],
  [/^(?:name|full name|이름|성함)$/, 'name'],
  [/^(?:address|home address|주소|집 주소)$/, 'address'],
  [/^(?:birthday|bday|b-day|date of birth|birth date|생일|생년월일)$/, 'birthday'],
  [/^(?:job|occupation|profession|job title|직업)$/, 'job'],
  [/^(?:employer|company|workplace|직장|회사)$/, 'works at'],
  [/^(?:사는 곳|사는 데|사는 도시|거주지)$/, 'lives in'],
];

export function canonicalRelation(phrase: string): string {
  const r = phrase
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    // "my new email", "my current address", "my real name": the same relation as without.
    .replace(/^(?:(?:new|current|updated|latest|present|real|actual)\s+)+(?=\S)/, '')
    .replace(/\bfav(?:e|ou?rite)?\b/g, 'favourite')
    .replace(/\bcolor\b/g, 'colour');
  for (const [pattern, name] of RELATION_SYNONYMS) if (pattern.test(r)) return name;
  const favourite = r.match(/^(?:(?:제일|가장)\s*)?좋아하는\s*(\S+)$/);
  if (favourite) return `favourite ${KO_FAVOURITE_OF[favourite[1]!] ?? favourite[1]}`;
  return r;
}

/**
 * Who the user is, where they live, come from and work: the few facts an agent should always have at hand,
 * so they go to the always-on profile channel (bounded by its own budget). Everything else is
 * recalled only when a query calls for it.
 */
export const CORE_RELATIONS: ReadonlySet<string> = new Set(['name', 'lives in', 'is from', 'works at', 'job']);

/** The relations that are about a person (the speaker or the one spoken to). */
const PROFILE_RELATIONS = /^(?:name|email|phone number|address|birthday|lives in|works at|job|is from|age|speaks)$/;

/** The type a triple's relation gives its memory. */
export function typeOfRelation(relation: string): string {
  if (/^(?:likes|dislikes)$|^favourite\b|선호/.test(relation)) return 'preference';
  if (/^(?:allergic to|diet)$/.test(relation)) return 'health';
  if (PROFILE_RELATIONS.test(relation)) return 'profile';
  return 'fact';
}

// ---- things and their attributes --------------------------------------------------------------

/** Nouns that name an attribute of a thing ("payment service port"): the relation of a config fact. */
const ATTRIBUTE_NOUNS = new Set(
  'port host hostname url endpoint version timeout limit size region zone owner lead name address email phone channel window schedule key path level mode database db branch cluster image tag replicas memory cpu budget deadline date time location status plan tier price rate quota capacity 포트 호스트 주소 버전 담당자 리전 일정 채널 경로 이름 상태 마감'.split(
    ' ',
  ),
);

/** People (and pets) of the speaker's: "my friend …" tells about them, not about the speaker. */
const PERSON_NOUN =
  /\b(?:friend|best friend|mom|mum|mother|dad|father|parent|wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|sister|brother|sibling|son|daughter|kid|child|children|baby|boss|manager|colleague|coworker|co-worker|teammate|roommate|flatmate|neighbou?r|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|family|dog|cat|pet)s?$/i;
const KO_PERSON_NOUN = /^(?:친구|엄마|아빠|어머니|아버지|부모님|형|누나|오빠|언니|동생|남편|아내|와이프|여자친구|남자친구|여친|남친|애인|동료|상사|사장님?|팀장님?|선배|후배|아들|딸|할머니|할아버지|가족|강아지|고양이|그|그녀|걔|쟤)$/;
/** A pronoun in a thing's name means it is not a thing: "the reason my port…", "it". */
const PRONOUN_IN_THING = /(?:^|\s)(?:i|me|my|mine|we|us|our|you|your|he|him|his|she|her|they|them|their|it|this|that|there|everyone|someone|nobody)(?:\s|$)/i;

function splitThing(phrase: string): { subject: string; relation: string } {
  const p = phrase.replace(/^(?:the|our|this|that)\s+/i, '').trim();
  const possessive = p.match(/^(.+?)'s\s+(.+)$/);
  if (possessive) return { subject: possessive[1]!, relation: canonicalRelation(possessive[2]!) };
  const words = p.split(/\s+/);
  const last = words[words.length - 1]!;
  if (words.length > 1 && ATTRIBUTE_NOUNS.has(last.toLowerCase())) return { subject: words.slice(0, -1).join(' '), relation: canonicalRelation(last) };
  return { subject: p, relation: 'is' };
}

/** A named thing ("payment-service", "Minji", "db-01"), which may have a plain "is" relation. */
const NAMED = /[\p{Lu}\p{N}_.-]/u;

/**
 * The subject and relation of a thing's phrase, or null when the phrase is a person or a pronoun.
 * "my email" is the speaker's; "the payment service port" is the service's. A phrase without an
 * attribute noun gets the relation "is": always for `any` (an explicit "is set to"), for a named
 * thing only with `named` ("payment-service is now v2", not "the weather is now…"), never with
 * `attribute`.
 */
function thingOf(phrase: string, who: Persons, plainIs: 'any' | 'named' | 'attribute'): { subject: string; relation: string } | null {
  const p = phrase.trim();
  const mine = p.match(/^(my|your)\s+(.+)$/i);
  if (mine) {
    if (PERSON_NOUN.test(mine[2]!)) return null;
    return { subject: mine[1]!.toLowerCase() === 'my' ? who.self : who.other, relation: canonicalRelation(mine[2]!) };
  }
  const bare = p.replace(/^(?:the|our|this|that)\s+/i, '');
  if (!bare || PRONOUN_IN_THING.test(bare) || PERSON_NOUN.test(bare)) return null;
  const thing = splitThing(bare);
  if (thing.relation === 'is' && (plainIs === 'attribute' || (plainIs === 'named' && !NAMED.test(thing.subject)))) return null;
  return thing;
}

// ---- values -----------------------------------------------------------------------------------

/** Not a value: a pronoun, an infinitive, a clause ("that…", "when…"). */
const PRONOUN_VALUE =
  /^(?:you|it|that|this|them|him|her|me|us|those|these|myself|yourself|ourselves|to|when|where|what|how|why|if|because|whether)(?![\p{L}\p{N}@.-])/iu;
/** A value that says what is not, or will be: "not 8080", "no longer…", "going to be…", "moving to…". */
const NOT_NOW_VALUE = /^(?:not|no longer|never|going to|gonna|about to|supposed to|planning|hoping)\b|^\w+ing\s+(?:to|in|at|for|from|with|on|into)\b/i;

/** The value as said, without hedges, time phrases, trailing clauses and punctuation; null if it is not a value. */
export function cleanValue(raw: string): string | null {
  const v = raw
    .replace(/^(?:now|still|actually|probably|definitely|really|officially|currently|just)\s+/i, '')
    .replace(/^(?:now|still|actually|probably|definitely|really|officially|currently|just)\s+/i, '')
    .replace(/^(?:now\s+)?(?:set|changed|updated|switched)\s+to\s+/i, '')
    .replace(TIME_WORDS, '')
    .replace(/\s+(?:and|but|so|because|since|which|where|though)(?:\s+.*)?$/i, '')
    .replace(/[,;:]\s.*$/, '')
    .replace(/[\s.,;:!?。！？~…]+$/u, '')
    .replace(/^["'“‘]|["'”’]$/g, '')
    .trim();
  if (!v || v.length > 80 || v.split(/\s+/).length > 8 || PRONOUN_VALUE.test(v) || NOT_NOW_VALUE.test(v)) return null;
  return v;
}

/** Where a place ends: before "with my wife", "from Seoul", "for work", "in March", "since 2019". */
const PLACE_TAIL =
  /\s+(?:with|from|for|since|near|because|after|before|until|when|as|in\s+(?:(?:19|20)\d{2}|january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter))\b.*$/i;
/** Where an employer ends: as PLACE_TAIL, and before "in Seoul". */
const EMPLOYER_TAIL = /\s+(?:with|from|for|since|because|after|before|until|when|as|in)\b.*$/i;
/** "a new apartment", "my parents' place", "home": somewhere, but not a place to key a home on. */
const NOT_A_PLACE = /^(?:a|an|my|our|his|her|their|your|some|this|that|these|those|here|there|home|the moment)\b/i;
const NOT_AN_EMPLOYER = /^(?:my|our|his|her|their|your|this|that|these|those|here|there|home|the moment)\b/i;
/** What is liked ends before a comparison or an amount: "tea over coffee", "jazz a lot". */
const LIKE_TAIL = /\s+(?:over|more than|rather than|instead of|than|a lot|so much|very much)\b.*$/i;
/** "I prefer tea to coffee". */
const PREFER_TAIL = /\s+(?:to|over|more than|rather than|instead of|than)\b.*$/i;

/** How a value of a contact or date relation looks: "My phone is broken" gives no phone number. */
const VALUE_SHAPE: Record<string, RegExp> = {
  email: /\S@\S/,
  'phone number': /\d{3}/,
  birthday: /\d|january|february|march|april|may|june|july|august|september|october|november|december|월/i,
};
/** A verdict on something of one's own, not a value of it: "my job is boring", "my back is killing me". */
const OPINION_VALUE =
  /^(?:(?:so|very|really|too|kind of|pretty|super|quite)\s+)*(?:boring|stressful|fun|great|good|bad|fine|ok|okay|awful|terrible|amazing|interesting|busy|hard|easy|tiring|exhausting|broken|dead|down|gone|lost|missing|full|empty|hurting|killing me|driving me crazy|a mess|a nightmare|a secret|complicated|weird)$/i;
/** "8080", "3pm", "eu-west-1", "Minji", "db-07.internal": a value, not an adjective ("slow"). */
const VALUE_LIKE = /[\p{N}\p{Lu}@.:/_-]/u;

function plausible(relation: string, value: string): boolean {
  return (VALUE_SHAPE[relation]?.test(value) ?? true) && !OPINION_VALUE.test(value);
}

function placeValue(raw: string, tail = PLACE_TAIL, not = NOT_A_PLACE): string | null {
  const v = cleanValue(raw.replace(TIME_WORDS, '').replace(tail, ''));
  return v && !not.test(v) ? canonicalPlace(v) : null;
}

// ---- rules ------------------------------------------------------------------------------------

interface Triple {
  subject: string;
  relation: string;
  value: string;
  cardinality: 'one' | 'many';
  rule: string;
}

/** First and second person as the speaker means them. */
interface Persons {
  self: string;
  other: string;
}

type Rule = (s: string, who: Persons) => Triple | null;

/** Openers that do not change what follows: "btw, I moved to…", "Oh well, my email is…", "Please remember that…". */
const LEAD = String.raw`^(?:(?:and|so|btw|by the way|also|oh|well|ok|okay|anyway|fyi|actually|honestly|now|update|heads up|fun fact|guess what|just so you know|as you know|for the record|sorry|oops|whoops|my bad|my mistake|correction|scratch that|strike that|wait|no|to be clear|(?:i\s+)?made\s+a\s+typo|typo|i\s+(?:misspoke|mistyped|misspelled|was wrong|got (?:that|it) wrong)(?:\s+(?:that|it|earlier|before))?|i\s+meant(?:\s+to\s+say)?(?:\s+that)?|(?:(?:can|could|would|will)\s+you\s+|please\s+)*(?:remember|note|keep in mind|make a note)\s+that)[,:!—-]?\s+)*`;
/** The speaker or the one spoken to, as a clause's subject. */
const SUBJECT = String.raw`(i|we|you)`;
const ADVERBS = String.raw`(?:\s+(?:now|still|currently|just|recently|finally|actually|also|officially|already|really))*`;
const BE = String.raw`(?:'m|'re|\s+am|\s+are)`;
const HAVE = String.raw`(?:'ve|\s+have)`;

const en = (source: string, flags = 'i'): RegExp => new RegExp(`${LEAD}${source}`, flags);

/** "I moved to Y": a done move. A plan ("I might move", "I'm moving", "I want to move") has no rule. */
const EN_MOVED = en(String.raw`${SUBJECT}${HAVE}?${ADVERBS}\s+(?:moved|relocated)(?:\s+(?:back|over|here|house|home))?\s+(?:to|into)\s+(.+)$`);
/** "I live in Y", "I'm living / based in Y", "I've been living in Y"; not "I lived", "I don't live", "I'd live". */
const EN_LIVES = en(String.raw`${SUBJECT}(?:${ADVERBS}\s+live|${BE}${ADVERBS}\s+(?:living|based|located|settled)|${HAVE}${ADVERBS}\s+(?:been\s+living|lived))\s+in\s+(.+)$`);
/** "I work at Y", "I'm working for Y", "I started working at Y", "I'm employed by Y". */
const EN_WORKS = en(
  String.raw`${SUBJECT}(?:${ADVERBS}\s+work\s+(?:at|for)|${BE}${ADVERBS}\s+working\s+(?:at|for)|${HAVE}${ADVERBS}\s+(?:been\s+working|worked)\s+(?:at|for)|${ADVERBS}\s+(?:started|began)\s+working\s+(?:at|for)|${BE}${ADVERBS}\s+employed\s+(?:at|by))\s+(.+)$`,
);
const EN_WORKS_AS = en(String.raw`${SUBJECT}(?:${ADVERBS}\s+work|${BE}${ADVERBS}\s+working)\s+as\s+(?:an?\s+)?(.+)$`);
const EN_CALL_ME = en(String.raw`(?:(?:you\s+can|please|just)\s+)?(?:call me|i'm called|i am called|people call me|everyone calls me|my friends call me|i go by)\s+(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*)?)`, 'iu');
/** Capitalised words that follow "call me" without being a name: "Call me tomorrow". */
const NOT_A_NAME = /^(?:tomorrow|today|tonight|later|maybe|when|if|anytime|back|now|please|sometime|soon|whenever|asap|again|crazy|old|a|an|the)$/i;
/** "my X is Y": the relation is X. "has changed to" and "is set to" say the same of now. */
const EN_MY_IS = en(String.raw`(my|your)\s+([a-z][a-z' -]{0,40}?)\s+(?:is|are|has changed to|changed to|has become|became)\s+(.+)$`);
/** "my name's Y"; when an "is" follows, the "'s" was a possessive ("my friend's name is…"), for EN_MY_IS. */
const EN_MY_CONTRACTED = en(String.raw`(my|your)\s+([a-z][a-z -]{0,40}?)'s\s+(?!.*\b(?:is|are)\b)(.+)$`);
const EN_LIKES = en(
  String.raw`${SUBJECT}(?:\s+(?:really|absolutely|also|just|still|truly|totally|kind of|kinda|do|genuinely))*\s+(don't\s+(?:really\s+)?(?:like|enjoy)|do\s+not\s+(?:really\s+)?(?:like|enjoy)|dislike|hate|can't stand|cannot stand|detest|like|love|enjoy|prefer|adore)\s+(.+)$`,
);
const CHANGE_VERB = String.raw`(?:set|changed|updated|switched|bumped|moved|configured|pinned|raised|lowered|increased|decreased|reduced|upgraded|downgraded)`;
/** "The X port is / was / has been set to Y". */
const EN_SET_TO = en(String.raw`(.+?)\s+(?:is|are|was|were|has been|have been|got|gets)\s+(?:now\s+)?${CHANGE_VERB}\s+to\s+(.+)$`);
/** "The X port changed to Y", "My email has changed to Y". */
const EN_CHANGED_TO = en(String.raw`(.+?)\s+(?:has\s+|have\s+)?(?:changed|switched)\s+(?:over\s+)?to\s+(.+)$`);
/** "We set the X port to Y", "I changed my email to Y". */
const EN_WE_SET = en(String.raw`(?:i|we)${HAVE}?(?:\s+(?:just|now|finally|also))*\s+${CHANGE_VERB}\s+(.+?)\s+to\s+(.+)$`);
const EN_THING_MOVED = en(String.raw`(.+?)\s+(?:has\s+|have\s+)?moved\s+to\s+(.+)$`);
const EN_IS_NOW = en(String.raw`(.+?)\s+(?:is|are)\s+now\s+(.+)$`);
/** "The payment service port is 8080": a plain "is" only for a thing with an attribute noun. */
const EN_ATTRIBUTE_IS = en(String.raw`(.+?)\s+(?:is|are)\s+(.+)$`);
/** "The payment service (now) runs on port 9090", "… uses port 9090", "… is on port 9090": the value names its attribute. */
const EN_RUNS_ON = en(String.raw`(.+?)\s+(?:now\s+)?(?:runs|listens|is running|is listening|is served|is hosted|uses|is using|is now|is|are)\s+(?:on\s+|at\s+)?(?:now\s+)?(.+)$`);
/** A clause that leaves out "I", as chat does: "Just moved to Busan!", "Working at Kakao now". */
const IMPLIED_I = new RegExp(
  `${LEAD}(?=(?:(?:just|recently|finally|now|currently|still)\\s+)*(?:moved|relocated|started working|(living in|working at|working for|based in))\\b)`,
  'i',
);

const person = (word: string, who: Persons): string => (word.toLowerCase() === 'you' ? who.other : who.self);

/** "X moved to port 8443": the value names its attribute. */
function attributeValue(value: string): { relation: string; value: string } | null {
  const m = value.match(/^(\S+)\s+(.+)$/);
  return m && ATTRIBUTE_NOUNS.has(m[1]!.toLowerCase()) ? { relation: canonicalRelation(m[1]!), value: m[2]! } : null;
}

/** Everyday facts about oneself that take a set-phrase frame: where one is from, allergies, pets, diet, languages, age. */
const EN_FROM = en(String.raw`${SUBJECT}${BE}${ADVERBS}\s+(?:originally\s+)?from\s+(.+)$`);
const EN_ALLERGIC = en(String.raw`${SUBJECT}${BE}${ADVERBS}\s+(?:very\s+|severely\s+|mildly\s+)?allergic\s+to\s+(.+)$`);
const EN_PET = en(String.raw`${SUBJECT}${HAVE}?(?:\s+got)?\s+(?:a|an|one|two|three)\s+(?:\w+\s+)?(dog|cat|puppy|kitten|rabbit|hamster|parrot|turtle|pet)\s+(?:named|called)\s+(\p{Lu}[\p{L}'-]*)`, 'iu');
const EN_DIET = en(String.raw`${SUBJECT}${BE}${ADVERBS}\s+(?:a\s+)?(vegetarian|vegan|pescatarian|lactose intolerant|gluten[- ]free|on a keto diet|keto|halal|kosher)\b`);
const EN_SPEAKS = en(String.raw`${SUBJECT}${ADVERBS}\s+speaks?\s+(?:fluent\s+|some\s+|a little\s+)?(\p{Lu}\p{L}+)`, 'iu');
const EN_AGE = en(String.raw`${SUBJECT}${BE}${ADVERBS}\s+(\d{1,3})(?:\s+years?\s+old)?$`);

const SET_PHRASE_RULES: Rule[] = [
  (s, who) => {
    const m = s.match(EN_FROM);
    const value = m && placeValue(m[2]!.replace(/\s+(?:originally|by birth|myself)\s*$/i, ''));
    // A place has a name: "from Busan", "from the US"; not "from the future", "from work".
    if (!m || !value || !/^(?:the\s+)?[\p{Lu}\p{Lo}]/u.test(value)) return null;
    return { subject: person(m[1]!, who), relation: 'is from', value, cardinality: 'one', rule: 'en: I am from Y' };
  },
  (s, who) => {
    const m = s.match(EN_ALLERGIC);
    const value = m && cleanValue(m[2]!);
    return m && value ? { subject: person(m[1]!, who), relation: 'allergic to', value, cardinality: 'many', rule: "en: I'm allergic to Y" } : null;
  },
  (s, who) => {
    const m = s.match(EN_PET);
    return m ? { subject: person(m[1]!, who), relation: 'has a pet', value: `${m[3]} (${m[2]!.toLowerCase()})`, cardinality: 'many', rule: 'en: I have a dog named Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_DIET);
    return m ? { subject: person(m[1]!, who), relation: 'diet', value: m[2]!.toLowerCase().replace(/^on a\s+/, ''), cardinality: 'one', rule: "en: I'm vegetarian" } : null;
  },
  (s, who) => {
    const m = s.match(EN_SPEAKS);
    return m ? { subject: person(m[1]!, who), relation: 'speaks', value: m[2]!, cardinality: 'many', rule: 'en: I speak Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_AGE);
    return m && Number(m[2]) > 0 && Number(m[2]) < 130 ? { subject: person(m[1]!, who), relation: 'age', value: m[2]!, cardinality: 'one', rule: "en: I'm N years old" } : null;
  },
];

const EN_RULES: Rule[] = [
  ...SET_PHRASE_RULES,
  (s, who) => {
    const m = s.match(EN_MY_IS) ?? s.match(EN_MY_CONTRACTED);
    const value = m && cleanValue(m[3]!);
    if (!m || !value || PERSON_NOUN.test(m[2]!)) return null;
    const relation = canonicalRelation(m[2]!);
    if (!plausible(relation, value)) return null;
    const subject = m[1]!.toLowerCase() === 'my' ? who.self : who.other;
    return { subject, relation, value: relation === 'lives in' ? canonicalPlace(value) : value, cardinality: 'one', rule: 'en: my X is Y' };
  },
  (s, who) => {
    const m = s.match(EN_MOVED);
    const value = m && placeValue(m[2]!);
    return m && value ? { subject: person(m[1]!, who), relation: 'lives in', value, cardinality: 'one', rule: 'en: I moved to Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_LIVES);
    const value = m && placeValue(m[2]!);
    return m && value ? { subject: person(m[1]!, who), relation: 'lives in', value, cardinality: 'one', rule: 'en: I live in Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_WORKS);
    const value = m && placeValue(m[2]!, EMPLOYER_TAIL, NOT_AN_EMPLOYER);
    return m && value ? { subject: person(m[1]!, who), relation: 'works at', value, cardinality: 'one', rule: 'en: I work at Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_WORKS_AS);
    const value = m && cleanValue(m[2]!.replace(EMPLOYER_TAIL, ''));
    return m && value ? { subject: person(m[1]!, who), relation: 'job', value, cardinality: 'one', rule: 'en: I work as Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_CALL_ME);
    // Names are capitalised: a case-sensitive look at what the case-insensitive rule found.
    const words = m ? m[1]!.split(/\s+/) : [];
    const name = words.filter((w, i) => i === 0 || /^\p{Lu}/u.test(w)).join(' ');
    if (!m || !/^\p{Lu}/u.test(words[0]!) || NOT_A_NAME.test(words[0]!)) return null;
    return { subject: who.self, relation: 'name', value: name, cardinality: 'one', rule: 'en: call me Y' };
  },
  (s, who) => {
    const m = s.match(EN_LIKES);
    const verb = m?.[2]!.toLowerCase() ?? '';
    const value = m && cleanValue(m[3]!.replace(verb === 'prefer' ? PREFER_TAIL : LIKE_TAIL, ''));
    // "I love you", "I like my job": about a person or one's own, not a taste to keep as a preference.
    if (!m || !value || /^(?:my|your|our|his|her|their)\b/i.test(value)) return null;
    const negative = /^(?:don't|do not|dislike|hate|can't|cannot|detest)/.test(verb);
    return { subject: person(m[1]!, who), relation: negative ? 'dislikes' : 'likes', value, cardinality: 'many', rule: 'en: I like Y' };
  },
  (s, who) => {
    const m = s.match(EN_SET_TO) ?? s.match(EN_CHANGED_TO);
    const value = m && cleanValue(m[2]!);
    const thing = m && value ? thingOf(m[1]!, who, 'any') : null;
    return thing && value ? { ...thing, value, cardinality: 'one', rule: 'en: X is set to Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_WE_SET);
    const raw = m && cleanValue(m[2]!);
    if (!m || !raw) return null;
    const attribute = attributeValue(raw);
    const thing = thingOf(m[1]!, who, attribute ? 'any' : 'attribute');
    if (!thing) return null;
    if (attribute && thing.relation === 'is') return { subject: thing.subject, ...attribute, cardinality: 'one', rule: 'en: we set X to Y' };
    return { ...thing, value: raw, cardinality: 'one', rule: 'en: we set X to Y' };
  },
  (s) => {
    const m = s.match(EN_THING_MOVED);
    const value = m && cleanValue(m[2]!);
    const bare = m ? m[1]!.replace(/^(?:the|our)\s+/i, '') : '';
    // "My friend moved to Busan", "She moved…": someone's news, not a thing's location.
    if (!m || !value || PRONOUN_IN_THING.test(bare) || PERSON_NOUN.test(bare)) return null;
    const attribute = attributeValue(value);
    if (attribute) return { subject: bare, ...attribute, cardinality: 'one', rule: 'en: X moved to Y' };
    const thing = splitThing(m[1]!);
    return { subject: thing.relation === 'is' ? thing.subject : `${thing.subject} ${thing.relation}`, relation: 'location', value, cardinality: 'one', rule: 'en: X moved to Y' };
  },
  (s, who) => {
    const m = s.match(EN_IS_NOW);
    const value = m && cleanValue(m[2]!);
    const thing = m && value ? thingOf(m[1]!, who, 'named') : null;
    return thing && value ? { ...thing, value, cardinality: 'one', rule: 'en: X is now Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_RUNS_ON);
    const value = m && cleanValue(m[2]!);
    const attribute = value && attributeValue(value);
    const thing = m && attribute ? thingOf(m[1]!, who, 'any') : null;
    if (!thing || !attribute || thing.relation !== 'is') return null;
    return { subject: thing.subject, ...attribute, cardinality: 'one', rule: 'en: X runs on port Y' };
  },
  (s, who) => {
    const m = s.match(EN_ATTRIBUTE_IS);
    const value = m && cleanValue(m[2]!);
    // Without "set to" or "now", only a value that looks like one: "the staging database is slow" is an opinion.
    const thing = m && value && VALUE_LIKE.test(value) && !/^(?:my|your)\s/i.test(m[1]!) ? thingOf(m[1]!, who, 'attribute') : null;
    return thing && value ? { ...thing, value, cardinality: 'one', rule: 'en: X attribute is Y' } : null;
  },
];

/**
 * Korean: a subject other than the speaker before the fact ("친구가 부산으로 이사했어", "형은 서울에
 * 살아") makes it someone else's news. Words with a subject or topic particle count, except the
 * speaker ("나는", "내가", "우리는") and time words ("요즘은", "작년에는").
 */
const KO_MARKED = /(?:이|가|은|는|께서|도)$/;
const KO_SELF_OR_TIME =
  /^(?:나|저|난|전|내가|제가|나는|저는|나도|저도|우리|우린|우리는|우리가|우리도|오늘은|어제는|요즘은|지금은|이제는|현재는|이번엔|이번에는|올해는|최근에는|드디어|같이|많이)$|(?:에는|에도|부터는?)$/;

/** "는" also ends a verb that describes a noun ("좋아하는 색", "사는 곳"): no subject there. */
const KO_ADNOMINAL = /(?:하는|사는|있는|없는|다니는|먹는|가는|오는|보는|듣는|쓰는|읽는|마시는|타는|입는|만드는|되는)$/;
/** Adjectives whose describing form ends in 은 ("작은 강아지", "좋은 차"): no topic either. */
const KO_ADJECTIVE_EUN = /(?:좋|작|많|높|낮|넓|좁|깊|얕|얇|젊|늙|맑|밝|검|붉|짧|같|적|싫|옳|굵|묽)은$/u;

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
const KO_NOT_A_VALUE = /^(?:어디|여기|거기|저기|집|회사|학교|근처|쪽|곳|데|그곳|이곳|너|당신|그|그녀|걔|너희|우리)$|(?:근처|쪽|옆|앞|뒤)$/;
/** A done move: not a wish ("이사했으면"), a time clause ("이사했을 때"), or a relative clause ("이사했던"). */
const KO_DONE = String.raw`(?!으면|다면|더라면|을\s*때|던|을까)`;
const KO_MOVED = new RegExp(String.raw`(\S+?)(?:으로|로)\s*(이사\s*(?:를\s*)?(?:했|갔|왔)|옮겼)${KO_DONE}`);
/** "서울에 살아", "서울에서 살고 있어"; not "살아야 해" (must), "살아보고 싶어" (would like to). */
const KO_LIVES = /(\S+?)(?:에서|에)\s*(?:살아(?!야|보|볼|도)|살고\s*있|삽니다|산다|살거든|사는\s*중)/;
const KO_WORKS = new RegExp(
  String.raw`(\S+?)(?:에서\s*(?:일해(?!야|보|도)|일하고\s*있|일합니다|일한다|근무(?:해|하고\s*있|합니다|한다|\s*중))|에\s*(?:다녀(?!왔|오|올|갔|야|보)|다니고\s*있|다닙니다|다닌다|(?:입사|취직)했${KO_DONE}))`,
);
const KO_LIKES = /(\S+?)(?:을|를)\s*(?:(?:정말|진짜|너무|제일|가장|많이|엄청|완전|아주|좀)\s*)*(안\s*좋아해|좋아해|좋아합니다|좋아한다|좋아하거든|사랑해|싫어해|싫어합니다|싫어한다|싫어하거든)(?!야|보|도)/;
/** "X를 Y로 바꿨어": a change the speaker made to a thing. */
const KO_CHANGED = new RegExp(String.raw`^(.+?)(?:을|를)\s+(\S+?)(?:으로|로)\s*(?:바꿨|변경했|설정했|올렸|내렸)${KO_DONE}`);
/** The endings of "X는 Y이야": the copula, and "Y로 바뀌었어" (it changed to Y). */
const KO_COPULA =
  /\s*(?:이었어|였어|이야|이에요|예요|입니다|이다|이고|야|(?:으로|로)\s*(?:바뀌었어|바뀌었다|바뀜|바꿨어|바꿨다|변경됐어|변경되었어|변경됐다|변경했어|설정했어|설정됐어|설정돼\s*있어|설정되어\s*있어))$/;
/**
 * "X는 Y", and "X가 Y" where X names its attribute ("포트가", "내 이메일이"). The topic is the
 * longest: "는" also ends a verb inside it ("제일 좋아하는 색은 파랑이야").
 */
const KO_TOPIC = /^(?:(내가|제가|내|제|나의|저의|네|너의|당신의)\s+|(?:나|저)\s+)?(.+)(?:은|는)\s+(.+)$/;
const KO_SUBJECT = /^(?:(내|제|나의|저의|네|너의|당신의)\s+|(?:나|저)\s+)?(.+?)(?:이|가)\s+(.+)$/;
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

const KO_RULES: Rule[] = [
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

/** First and second person, as the speaker means them: the user's "my" and the assistant's "your" are the user. */
function persons(speaker: Speaker): Persons {
  if (speaker === 'assistant') return { self: 'assistant', other: 'user' };
  if (speaker === 'user') return { self: 'user', other: 'assistant' };
  return { self: speaker, other: 'user' };
}

// ---- clauses ----------------------------------------------------------------------------------

/**
 * Where a sentence starts saying a second thing: "My name is Minji and I live in Seoul", "I used
 * to live in Seoul, but now I live in Busan", "Last week, I moved to Daejeon". Only before a new
 * first- or second-person subject, so "fish and chips" stays one value.
 */
const EN_CLAUSE_BREAK =
  /\s*[,;]\s*(?:(?:and|but|so|plus)\s+)?(?=(?:now\s+|then\s+|also\s+)?(?:i|i'm|i've|my|we|we're|we've|our|you|your)\b)|\s+(?:and|but|so|plus)\s+(?=(?:now\s+|then\s+|also\s+)?(?:i|i'm|i've|my|we|we're|we've|our)\b)/i;
const KO_CLAUSE_BREAK = /\s*,\s*|\s+(?:그리고|그런데|근데|하지만|그래서)\s+/;
/** The wrong value a fix sets before the right one: "not in Seattle but", "서울이 아니라". */
const EN_NOT_X_BEFORE = /\bnot\s+(?:in\s+|at\s+|to\s+)?[^,;!?]+?,?\s+but\s+(?=in\b|at\b|to\b|\p{Lu})/iu;
const KO_NOT_X_BEFORE = /\S+?(?:이|가)?\s*아니(?:라|고)\s+/u;
/** A clause this long is no stated fact; leaving it to prose also keeps every rule's work small. */
const MAX_CLAUSE_CHARS = 300;

const stripStage = (s: string): string => s.replace(/\*[^*]*\*/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * Whole-word patterns by cue, compiled once: the gates test the same few hundred cues on every
 * message (compiling them each time was a fifth of a message's JavaScript). Policies are small;
 * the bound only keeps a pathological one from growing it without end.
 */
const CUE_PATTERNS = new Map<string, RegExp>();
const MAX_CUE_PATTERNS = 10_000;

function matchesCue(text: string, cue: string, language: Language): boolean {
  const c = cue.toLowerCase();
  if (/[\uac00-\ud7a3]/.test(c) || language === 'ko') return text.toLowerCase().includes(c);
  let pattern = CUE_PATTERNS.get(c);
  if (!pattern) {
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');
    if (CUE_PATTERNS.size >= MAX_CUE_PATTERNS) CUE_PATTERNS.clear();
    CUE_PATTERNS.set(c, pattern);
  }
  return pattern.test(text);
}

/** Whether any of the words or phrases appears: whole words in English, substrings in Korean. */
export function containsAny(text: string, words: string[], language: Language): string | null {
  return words.find((w) => matchesCue(text, w, language)) ?? null;
}

export function extractCandidates(input: ExtractionInput): Candidate[] {
  const { triage, at } = input;
  const who = persons(input.speaker);
  const statements = triage.sentences.filter((s) => s.act === 'statement');
  const ko = triage.language === 'ko';
  const rules = ko ? KO_RULES : EN_RULES;
  const triples: Candidate[] = [];
  const seen = new Set<string>();
  const rest: string[] = [];
  for (const sentence of statements) {
    const plain = stripStage(sentence.text);
    // A time phrase in a clause without a fact ("Last week, …") dates the clauses after it.
    let carried: Date | null = null;
    let found = 0;
    const fix = fixOf(plain, triage.language);
    for (const clause of plain ? plain.split(ko ? KO_CLAUSE_BREAK : EN_CLAUSE_BREAK) : []) {
      // A fix's wrong value set beside the right one is no part of the fact: "not in Seattle but in Tacoma", "서울이 아니라 부산에".
      const said = clause.replace(/[.!。！~]+$/u, '').replace(ko ? KO_NOT_X_BEFORE : EN_NOT_X_BEFORE, '').trim();
      const bare = ko ? said : said.replace(IMPLIED_I, (lead: string, ing?: string) => `${lead}${ing ? "I'm" : 'I'} `);
      const stated = timeOf(clause, at, triage.language);
      const when = stated?.time ?? null;
      let triple: Triple | null = null;
      for (const rule of bare && bare.length <= MAX_CLAUSE_CHARS ? rules : []) {
        if ((triple = rule(bare, who))) break;
      }
      if (!triple) {
        carried = when ?? carried;
        continue;
      }
      found++;
      // The time phrase is no part of the value: "Denver on Friday" is "Denver".
      const cut = stated ? triple.value.toLowerCase().indexOf(stated.phrase.toLowerCase()) : -1;
      if (cut > 0) triple = { ...triple, value: triple.value.slice(0, cut).replace(/[\s,]+$/u, '') };
      const key = `${triple.subject}\u0000${triple.relation}\u0000${triple.value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      triples.push({
        memoryKind: 'fact',
        subject: triple.subject,
        relation: triple.relation,
        value: triple.value,
        cardinality: triple.cardinality,
        labels: [typeOfRelation(triple.relation)],
        text: sentence.text,
        validFrom: when ?? carried ?? at,
        core: CORE_RELATIONS.has(triple.relation) && triple.subject === 'user',
        rule: triple.rule,
        ...(fix ? { correction: true as const } : {}),
      });
    }
    if (found === 0) rest.push(sentence.text);
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
      validFrom: validFromOf(text, at, triage.language),
      core: false,
      rule: labels.length ? `prose, labelled by cue words (${labels.join(', ')})` : 'prose: no rule found a triple',
    },
  ];
}
