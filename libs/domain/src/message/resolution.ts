/**
 * Resolution (R22), pure: does a new statement change what an earlier memory of the tenant says,
 * even in other words? Keys alone miss most such changes ("I live in Lisbon" → "I moved over to
 * Porto"): people rarely repeat a fact's frame when it changes. So a new statement is compared
 * with each earlier memory that shares its words, as a second judgement beside extraction:
 *
 * - **who it is about** (the holder): the speaker and "we" are one holder; "my brother", "my
 *   wife", "my son" are each their own. Different holders never merge.
 * - **what it is about** (the slot): the content words beside the values, lightly stemmed, and a
 *   small controlled vocabulary that brings different words for one slot together (home: live,
 *   based, relocate, 집, 이사; phone: number, call, 전화; …).
 * - **the values**: typed where they have a shape (email, phone, path, version, identifier,
 *   quantity with its unit, ordinal, count, time, name), and otherwise the words left once the
 *   slot is taken away.
 * - **cues**: a change ("moved", "switched", "now", "from now on", "바뀌었어"), a correction
 *   ("turns out … not"), a retraction ("no longer", "quit", "sold"), or an addition ("also",
 *   "too", "another"), which keeps both.
 *
 * A memory is replaced when the holders agree, the slot is the same and the values differ, and
 * either the statement says it changed (or names the old value as what it replaces), or the
 * slot holds one value by nature (a typed value, a home, an email) and nothing else differs.
 * Look-alikes stay apart: another holder, an addition, or a second difference (staging against
 * production, dog against cat) is not a change of one value. Where the slot and a value agree but
 * the evidence is thin, both are kept and the decision says it was unsure.
 */
import { canonicalPlace } from './extraction';
import { fixOf } from './fixes';
import { generalClaim, isHypothetical, tellsAnEvent } from './mood';
import { type Language, splitSentences } from './triage';

export type ValueKind = 'email' | 'phone' | 'url' | 'path' | 'version' | 'identifier' | 'date' | 'quantity' | 'ordinal' | 'count' | 'time' | 'name' | 'word';

export interface StatedValue {
  kind: ValueKind;
  /** As written. */
  text: string;
  /** Compared: lower-cased, units and number words normalised. */
  norm: string;
  /** For a quantity, ordinal or count: what is counted ("s", "floor", "kid"). */
  unit?: string;
}

export interface Statement {
  text: string;
  language: Language;
  /** 'first' (I, we, my, our), a third party ("brother", "wife"), or 'thing'. */
  holder: string;
  values: StatedValue[];
  /** Stems of the content words beside the values and the cues. */
  slot: Set<string>;
  /** Vocabulary classes the statement falls in. */
  classes: Set<string>;
  change: { kind: 'update' | 'correction' | 'retraction'; cue: string } | null;
  additive: string | null;
  /** Says something is not so ("not allergic", "no longer", "아니"). */
  negated: boolean;
  /** Stems of every content word, values included: what an earlier memory may be found by. */
  words: Set<string>;
}

// ---- words --------------------------------------------------------------------------------------

const STOPWORDS = new Set(
  `a an the and or but if then so to of in on at by for with from about into over after before under up down out off
  is are was were be been being am do does did done have has had having i me my mine we us our ours you your yours
  he him his she her it its they them their this that these those what which who whom whose when where why how
  can could would should will shall may might must not no yes just really very too also again still ever always
  fully completely totally entirely mostly finally officially basically pretty quite more less much many
  there here any some all each every other such only own same than as around usually mostly often got get gets
  go goes going went gone come comes came one's i'm i've i'd i'll we're we've we'll it's that's there's don't
  didn't doesn't isn't aren't wasn't weren't won't can't cannot let's please well oh ok okay hey hi thanks`.split(/\s+/),
);

/** Korean words that carry no slot: pronouns, fillers, the endings of saying. */
const KO_STOPWORDS = new Set('우리 나 내 저 제 너 네 그 이 저기 거기 여기 좀 진짜 너무 정말 완전 그냥 이제 요즘 지금 했어 했다 했어요 있어 있다 왔어 갔어 됐어 돼 해 이야 거야 건 게'.split(' '));
const KO_TIME_WORDS = /^(?:지난|저번|이번|다음)(?:주|달|해|번)?$|^(?:어제|오늘|내일|그제|작년|올해|내년|최근|아까|방금|주말)$/u;

/** Words that say a change, not what changed. */
const CHANGE_WORDS = new Set(
  `now nowadays lately recently moved move moves moving relocated relocate switched switch changed change changes
  updated update new newly since bumped bump upgraded upgrade downgraded downgrade raised raise lowered lower cut
  reduced reduce increased increase decreased decrease renamed rename replaced replace instead rather quit left
  leave joined join started start dropped drop picked pick sold gone anymore longer stopped stop became become
  becomes turns turned turn out actually wrong mistake correction meant days these from forward onwards on use
  using called grew grown grow shrank shrunk rose fallen fell doubled halved expanded added adopted transferred
  transfer migrated migrate ported bought buy got went turned take takes taking took taken over hand hands handing
  handed handover pass passes passing passed step steps stepping stepped succeed succeeds succeeded successor
  appoint appoints appointed promote promotes promoted assign assigns assigned reassign reassigned swap swaps
  swapped charge reins`.split(/\s+/),
);

/** Words of time that date a statement without being about its slot. */
const TIME_WORDS = new Set(
  `today yesterday tomorrow tonight week weekend month year ago last next this morning afternoon evening night
  spring summer autumn fall winter january february march april may june july august september october november
  december monday tuesday wednesday thursday friday saturday sunday`.split(/\s+/),
);

/** Korean particles and endings that stay on a word ("집은", "광주로", "바뀌었어"). */
const KO_ENDINGS = /(?:으로|에서|에게|한테|까지|부터|이야|이에요|예요|입니다|이다|였어|이었어|은|는|이|가|을|를|에|로|도|의|야|요)$/u;

/** Whether a word (lower-cased, as written) says what a statement is about: not a function word, a word of change or time, or a number. */
export function isContentWord(word: string): boolean {
  return !STOPWORDS.has(word) && !CHANGE_WORDS.has(word) && !TIME_WORDS.has(word) && !ADDITIVE_WORDS.has(word) && !/^[\d.,%]+$/u.test(word) && word.length > 1;
}

/** A light English stemmer: enough to meet "nurse" and "nursing", "latte" and "lattes". */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/u, '');
  if (/[\uac00-\ud7a3]/u.test(w)) {
    if (w.length <= 1) return w;
    // "회의" is a word, not "회" with a possessive: a two-syllable word keeps a final 의.
    const stripped = w.length === 2 && w.endsWith('의') ? w : w.replace(KO_ENDINGS, '');
    return stripped || w;
  }
  if (!/^[a-z]+$/.test(w) || w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:ches|shes|sses|xes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/**
 * The controlled vocabulary: word stems (and Korean words) that name one slot in different ways.
 * `heads` name the slot ("diet", "email"); `values` are words that are themselves a value of it
 * ("vegan", "subway"), so that two statements of one slot that differ in such a word differ in
 * value. A class is matched on a stem of the statement (Korean: on the word's start).
 */
export const SLOT_CLASSES: Readonly<Record<string, { heads: readonly string[]; values?: readonly string[] }>> = {
  home: { heads: ['live', 'liv', 'lif', 'based', 'bas', 'resid', 'relocat', 'home', 'hous', 'apartment', 'flat', 'hometown', 'address', 'addres', '집', '이사', '살', '거주', '사는', '주소'] },
  email: { heads: ['email', 'e-mail', 'mail', 'inbox', 'contact', 'reach', 'writ', 'send', '이메일', '메일'] },
  phone: { heads: ['phone', 'number', 'mobil', 'cell', 'call', 'reach', 'contact', 'text', '전화', '번호', '휴대폰', '핸드폰', '연락처'] },
  job: {
    heads: ['job', 'work', 'occupation', 'profession', 'career', '직업'],
    values: ['nurs', 'teach', 'teacher', 'engineer', 'developer', 'doctor', 'lawyer', 'designer', 'chef', 'accountant', 'student', 'writer', 'pilot', 'scientist'],
  },
  employer: { heads: ['employer', 'employ', 'company', 'firm', 'joined', 'join', 'hired', 'work', 'job', 'startup', '회사', '직장', '입사', '이직'] },
  manager: { heads: ['manager', 'lead', 'boss', 'supervisor', 'report', 'head', '팀장', '상사', '매니저'] },
  username: { heads: ['usernam', 'username', 'handl', 'handle', 'nick', 'nicknam', 'login', 'account', '아이디', '닉네임'] },
  sleep: { heads: ['sleep', 'bed', 'bedtim', 'asleep', 'wak', 'wake', '잠'] },
  commute: { heads: ['commut', 'commute', 'rid', 'ride', 'travel', '출근'], values: ['subway', 'bus', 'train', 'car', 'bik', 'bike', 'scooter', 'walk', 'metro', 'tram', 'vespa', 'motorbik', 'motorcycl', 'ferry', '지하철', '버스'] },
  car: { heads: ['car', 'driv', 'drive', 'vehicl', 'vehicle', '차', '자동차'] },
  drink: { heads: ['drink', 'beverag', '음료'], values: ['coffe', 'coffee', 'tea', 'latt', 'latte', 'espresso', 'americano', 'cappuccino', 'juic', 'water', 'soda', 'beer', 'wine', 'kombucha', 'matcha', 'smoothi', '커피', '녹차', '차'] },
  diet: { heads: ['diet', 'eat', '식단'], values: ['vegetarian', 'vegan', 'meat', 'keto', 'pescatarian', 'omnivor', 'halal', 'kosher', '채식'] },
  language: {
    heads: ['learn', 'study', 'studi', 'languag', 'language', 'speak', '공부', '배우', '언어'],
    values: ['english', 'spanish', 'japanes', 'japanese', 'korean', 'chines', 'chinese', 'mandarin', 'french', 'german', 'italian', 'portugues', 'russian', 'arabic', 'hindi', 'dutch', 'swedish', 'turkish', 'vietnames', 'thai', '영어', '일본어', '중국어', '스페인어', '프랑스어', '독일어'],
  },
  school: { heads: ['school', 'grade', 'class', 'college', 'university', 'universiti', 'study', 'studi', 'student', 'transferr', 'transfer', 'enrol', '학교', '학년', '대학'] },
  tool: { heads: ['tool', 'deploy', 'build', 'ci', 'editor', 'ide', 'framework', 'librari', 'library', 'stack'] },
  timeout: { heads: ['timeout', 'ttl', 'expir', 'expiry', 'time-out', '타임아웃'] },
  port: { heads: ['port', 'listen', '포트'] },
  version: { heads: ['version', 'pin', 'pinn', 'pinned', 'releas', 'release', '버전'] },
  path: { heads: ['path', 'url', 'endpoint', 'rout', 'route', 'base', '경로'] },
  name: { heads: ['nam', 'name', 'renam', 'title', '이름'] },
  count: { heads: ['kid', 'child', 'children', 'son', 'daughter', '아이', '자녀'] },
  pet: { heads: ['pet'], values: ['dog', 'cat', 'puppi', 'puppy', 'kitten', 'parrot', 'hamster', 'rabbit', 'turtl', 'turtle', 'fish', 'guinea', '강아지', '고양이'] },
  allergy: { heads: ['allergic', 'allergi', 'allergy', '알레르기'] },
  preference: { heads: ['prefer', 'preference', 'favourit', 'favorit', 'favourite', 'favorite', 'go-to', 'want', 'rather', 'choos', '선호', '좋아하는'] },
};

/** What a typed value says about its slot: an email is of the email slot wherever it is said. */
const KIND_CLASSES: Partial<Record<ValueKind, string>> = { email: 'email', phone: 'phone', path: 'path', url: 'path', version: 'version' };

const members = (c: { heads: readonly string[]; values?: readonly string[] }): readonly string[] => [...c.heads, ...(c.values ?? [])];

/** Slots that hold one value at a time when the statement gives it no other shape. */
const ONE_VALUE_CLASSES = new Set(['home', 'email', 'phone', 'job', 'employer', 'manager', 'username', 'sleep', 'commute', 'car', 'diet', 'school', 'timeout', 'port', 'version', 'path']);

/** Typed values: one value each, whatever else the statement says. */
const ONE_VALUE_KINDS = new Set<ValueKind>(['email', 'phone', 'url', 'path', 'version', 'identifier', 'date', 'quantity', 'ordinal', 'count', 'time']);

const HANGUL = /[\uac00-\ud7a3]/u;

/**
 * A word list made ready to match against: Latin words as themselves and as stems, Korean words
 * as the starts of words (built once: matching runs for every word of every statement compared).
 */
interface WordSet {
  exact: Set<string>;
  starts: string[];
}
const wordSet = (words: readonly string[]): WordSet => ({
  exact: new Set(words.filter((w) => !HANGUL.test(w)).flatMap((w) => [w, stem(w)])),
  starts: words.filter((w) => HANGUL.test(w)),
});
const inSet = (s: string, set: WordSet): boolean => set.exact.has(s) || (set.starts.length > 0 && HANGUL.test(s) && set.starts.some((w) => s.startsWith(w)));

const CLASS_MEMBERS = new Map(Object.entries(SLOT_CLASSES).map(([name, c]) => [name, wordSet(members(c))]));
const CLASS_VALUES = new Map(Object.entries(SLOT_CLASSES).map(([name, c]) => [name, wordSet(c.values ?? [])]));

function classesOf(stems: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const s of stems) for (const [name, set] of CLASS_MEMBERS) if (inSet(s, set)) out.add(name);
  return out;
}

/** The words of a statement that are values of a class ("vegan" of diet). */
function classValues(stems: Iterable<string>, cls: string): string[] {
  const values = CLASS_VALUES.get(cls);
  return values ? [...stems].filter((s) => inSet(s, values)) : [];
}

// ---- values -------------------------------------------------------------------------------------

const NUMBER_WORDS: Record<string, number> = { zero: 0, no: 0, one: 1, a: 1, an: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, 하나: 1, 한: 1, 둘: 2, 두: 2, 셋: 3, 세: 3, 넷: 4, 네: 4 };
const UNITS: [RegExp, string][] = [
  [/^(?:ms|milliseconds?)$/, 'ms'],
  [/^(?:s|secs?|seconds?|초)$/, 's'],
  [/^(?:m|mins?|minutes?|분)$/, 'min'],
  [/^(?:h|hrs?|hours?|시간)$/, 'h'],
  [/^(?:d|days?|일)$/, 'd'],
  [/^(?:kb|mb|gb|tb)$/, ''],
  [/^(?:km|kilomet(?:er|re)s?)$/, 'km'],
  [/^(?:mi|miles?)$/, 'mi'],
  [/^(?:kg|kilograms?|kilos?)$/, 'kg'],
  [/^(?:lbs?|pounds?)$/, 'lb'],
  [/^(?:cm|mm|px)$/, ''],
  [/^(?:%|percent)$/, '%'],
];

function unitOf(raw: string): string {
  const u = raw.toLowerCase();
  for (const [pattern, name] of UNITS) if (pattern.test(u)) return name || u;
  return stem(u);
}

interface Found {
  value: StatedValue;
  start: number;
  end: number;
}

/** Each value pattern once as a global expression (compiling them for every statement was most of its time). */
const GLOBAL = new Map<string, RegExp>();
function globalOf(re: RegExp): RegExp {
  const key = `${re.source}/${re.flags}`;
  let g = GLOBAL.get(key);
  if (!g) GLOBAL.set(key, (g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`)));
  g.lastIndex = 0;
  return g;
}

/** The typed values of a text, left to right, with where they stand. */
function typedValues(text: string): Found[] {
  const found: Found[] = [];
  const taken = (s: number, e: number) => found.some((f) => s < f.end && e > f.start);
  const add = (re: RegExp, make: (m: RegExpExecArray) => StatedValue | null) => {
    for (const m of text.matchAll(globalOf(re))) {
      const start = m.index!;
      const end = start + m[0].length;
      if (taken(start, end)) continue;
      const v = make(m as RegExpExecArray);
      if (v) found.push({ value: v, start, end });
    }
  };
  add(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/u, (m) => ({ kind: 'email', text: m[0], norm: m[0].toLowerCase() }));
  add(/https?:\/\/[^\s,;]+/u, (m) => ({ kind: 'url', text: m[0], norm: m[0].toLowerCase().replace(/[.)]+$/, '') }));
  add(/(?:\+\d{1,3}[ -]?)?\b\d{2,4}[ -]\d{3,4}[ -]\d{4}\b/u, (m) => ({ kind: 'phone', text: m[0], norm: m[0].replace(/\D/g, '') }));
  add(/(?<![\w/])\/[\w.-]+(?:\/[\w.-]+)*/u, (m) => ({ kind: 'path', text: m[0], norm: m[0].toLowerCase().replace(/\.$/, '') }));
  add(/\bv?\d+\.\d+(?:\.\d+)+\b|\bv\d+(?:\.\d+)?\b/iu, (m) => ({ kind: 'version', text: m[0], norm: m[0].toLowerCase().replace(/^v/, '') }));
  add(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b/u, (m) => ({ kind: 'identifier', text: m[0], norm: m[0] }));
  // Dotted names: hosts, domains, files ("db-07.internal", "api.example.com", "config.yaml").
  add(/\b[a-z][\w-]*(?:\.[a-z][\w-]*)+\b/u, (m) => ({ kind: 'identifier', text: m[0], norm: m[0].toLowerCase() }));
  // Times: "10pm", "9:30", "midnight", "12시 30분".
  add(/\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b|\b(?:midnight|noon|midday)\b|(?:오전|오후)?\s*\d{1,2}\s*시(?:\s*\d{1,2}\s*분|\s*반)?/iu, (m) => ({
    kind: 'time',
    text: m[0].trim(),
    norm: normTime(m[0]),
  }));
  // Dates: "April 5, 2024", "5 April", "2024-04-05" (a day, not three numbers).
  add(
    /\b(?:(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{1,2}(?:st|nd|rd|th)?\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*(?:,?\s+\d{4})?|May\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{4}-\d{2}-\d{2})\b/u,
    (m) => ({ kind: 'date', text: m[0], norm: m[0].toLowerCase().replace(/(\d)(?:st|nd|rd|th)/u, '$1').replace(/[.,]/gu, '').replace(/\s+/gu, ' ') }),
  );
  // Ordinals with what they count: "5th floor", "4th grade".
  add(/\b(\d+)(?:st|nd|rd|th)\s+([A-Za-z]+)/u, (m) => ({ kind: 'ordinal', text: m[0], norm: m[1]!, unit: stem(m[2]!) }));
  add(/(\d+)\s*(층|학년)/u, (m) => ({ kind: 'ordinal', text: m[0], norm: m[1]!, unit: m[2]! }));
  // Quantities: "300 seconds", "60s", "2 GB", "10%".
  // (The end is not a word boundary: none follows "%".)
  add(/\b(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?|kb|mb|gb|tb|%|percent|km|kilomet(?:er|re)s?|mi|miles?|kg|kilograms?|kilos?|lbs?|pounds?|cm|mm|px)(?![\p{L}\p{N}_])/iu, (m) => ({
    kind: 'quantity',
    text: m[0],
    norm: m[1]!,
    unit: unitOf(m[2]!),
  }));
  add(/(\d+(?:\.\d+)?)\s*(초|분|시간|일)(?![\p{L}])/u, (m) => ({ kind: 'quantity', text: m[0], norm: m[1]!, unit: unitOf(m[2]!) }));
  // Counts: "one kid", "two kids", "3 cats".
  add(/\b(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)\s+(kids?|child(?:ren)?|sons?|daughters?|cats?|dogs?|pets?|cars?|siblings?|brothers?|sisters?|[a-z]{3,}s)\b/iu, (m) => ({
    kind: 'count',
    text: m[0],
    norm: String(NUMBER_WORDS[m[1]!.toLowerCase()] ?? Number(m[1])),
    unit: m[2]!.toLowerCase().startsWith('child') ? 'kid' : stem(m[2]!),
  }));
  // A street address: "12 Elm Street", "48 Oak Avenue".
  add(/\b\d+\s+(?:[\p{Lu}][\p{L}]+\s+)+(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Boulevard|Blvd|Drive|Dr|Way|Place|Pl|Court|Ct)\b\.?/u, (m) => ({
    kind: 'name',
    text: m[0].replace(/\.$/, ''),
    norm: m[0].replace(/\.$/, '').toLowerCase(),
  }));
  // A bare number ("port 8080", "5432"): a quantity of nothing in particular.
  add(/\b\d+(?:\.\d+)?\b/u, (m) => ({ kind: 'quantity', text: m[0], norm: m[0], unit: '' }));
  return found.sort((a, b) => a.start - b.start);
}

function normTime(raw: string): string {
  const t = raw.toLowerCase().replace(/\s+/g, '');
  if (t === 'midnight') return '00:00';
  if (t === 'noon' || t === 'midday') return '12:00';
  const ko = t.match(/(오전|오후)?(\d{1,2})시(?:(\d{1,2})분|(반))?/u);
  if (ko) {
    const h = Number(ko[2]) + (ko[1] === '오후' && Number(ko[2]) < 12 ? 12 : 0);
    return `${String(h).padStart(2, '0')}:${ko[4] ? '30' : String(Number(ko[3] ?? 0)).padStart(2, '0')}`;
  }
  const en = t.match(/(\d{1,2})(?::(\d{2}))?(am|pm)?/);
  if (!en) return t;
  let h = Number(en[1]);
  if (en[3] === 'pm' && h < 12) h += 12;
  if (en[3] === 'am' && h === 12) h = 0;
  return `${String(h).padStart(2, '0')}:${en[2] ?? '00'}`;
}

/** Capitalised words not at a sentence's start (or there, when no common word): names, places, products. */
function names(text: string, skip: (s: number, e: number) => boolean): Found[] {
  const out: Found[] = [];
  // A word of two letters or more that ends with a period ends the name: "Mrs. Okonkwo. They …" is a name and a new sentence.
  const re = /\b(?:(?:Mr|Ms|Mrs|Dr|St)\.\s+)?[\p{Lu}][\p{L}\p{N}'’.-]*(?:(?<!\p{L}{2}[.])\s+(?:of\s+)?[\p{Lu}][\p{L}\p{N}'’.-]*)*/gu;
  for (const m of text.matchAll(re)) {
    const start = m.index!;
    const end = start + m[0].length;
    if (skip(start, end)) continue;
    let name = m[0].replace(/['’]s$/u, '').replace(/[.]$/, '');
    const before = text.slice(0, start).trimEnd();
    const atStart = before === '' || /[.!?:;]$/.test(before);
    if (atStart) {
      const first = name.split(/\s+/)[0]!;
      if (STOPWORDS.has(first.toLowerCase()) || CHANGE_WORDS.has(first.toLowerCase()) || TIME_WORDS.has(first.toLowerCase()) || first.toLowerCase() in NUMBER_WORDS) {
        name = name.split(/\s+/).slice(1).join(' ');
        if (!name) continue;
      } else if (!/\s/.test(name)) {
        // One capitalised word opening a sentence may be any word ("Looks like…", "Numpy is…"): a word of the slot.
        continue;
      }
    }
    // "I", "I'd", "I'm" …: the speaker, capitalised mid-sentence, not a name ("I'm Dana": Dana).
    name = name.replace(/^I(?:['’](?:d|m|ve|ll|s))?(?:\s+|$)/u, '');
    if (!name) continue;
    const lower = name.toLowerCase();
    if (TIME_WORDS.has(lower)) continue;
    out.push({ value: { kind: 'name', text: name, norm: lower }, start, end });
  }
  return out;
}

// ---- holder and cues ----------------------------------------------------------------------------

/** Third parties whose facts are theirs, not the speaker's: "my brother lives in…", "my wife's email". */
const PERSON = String.raw`(brother|sister|sibling|wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|son|daughter|kid|child|mom|mum|mother|dad|father|parent|friend|roommate|flatmate|neighbou?r|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|colleague|coworker)`;
const EN_OTHER = new RegExp(String.raw`\b(?:my|our|your)\s+(?:(?:older|younger|little|big|elder|best|oldest|youngest)\s+)?${PERSON}(?:['’]s|s\b|\b)`, 'iu');
const KO_OTHER = /(형|누나|오빠|언니|동생|남편|아내|와이프|아들|딸|엄마|아빠|어머니|아버지|친구|남친|여친|남자친구|여자친구)(?:은|는|이|가|의|도)?(?:\s|$)/u;

/** "Minji Kim's phone", "Sara's car": a named person's own. */
const EN_NAMED_OWNER = /\b((?:[\p{Lu}][\p{L}'-]+\s+){0,2}[\p{Lu}][\p{L}-]+)['’]s\s+(?!(?:been|got|gone|going|not)\b)[\p{Ll}]/u;

function holderOf(text: string, language: Language): string {
  if (language === 'ko') {
    const m = text.match(KO_OTHER);
    return m ? m[1]! : 'first';
  }
  const m = text.match(EN_OTHER);
  if (m) return stem(m[1]!.toLowerCase().replace(/s$/, ''));
  const named = text.match(EN_NAMED_OWNER);
  // "Tuesday's standup", "today's plan": a day's, no person's.
  const day = /^(?:Today|Tomorrow|Yesterday|Tonight|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Last \w+|This \w+|Next \w+)$/;
  return named && !/^(?:It|That|There|What|He|She|Here|Who)$/.test(named[1]!) && !day.test(named[1]!) ? `named:${named[1]!.toLowerCase()}` : 'first';
}

const EN_CORRECTION = /\b(?:turns? out|turned out|actually|it was wrong|was wrong|by mistake|correction|i meant|after all|not really)\b/i;
const EN_RETRACTION = /\b(?:no longer|not any ?more|don'?t\s+\w+\s+anymore|quit|stopped|sold|got rid of|gave up|left)\b/i;
/**
 * Words that say a value changed. Besides the verbs of change, those of a role passing from one
 * holder to another, in any tense: "has taken over as", "handed the … role to", "stepped in as",
 * "succeeded", "was appointed", "put in charge".
 */
const EN_UPDATE =
  /\b(?:now|nowadays|these days|lately|from now on|from today on|starting today|from today|going forward|henceforth|since|new|moved|relocated|switched|changed|updated|bumped|upgraded|downgraded|raised|lowered|cut|reduced|increased|decreased|renamed|replaced|instead of|joined|started|dropped|picked up|became|is now called|are now called|moved up|went up|went down|grew|shrank|doubled|halved|expanded|transferred|migrated|ported|bought|gone|turned(?! out)|(?:take[sn]?|took|taking) over|(?:hand(?:s|ed|ing)?|pass(?:es|ed|ing)?) (?:over|off|on)|(?:handed|passed|gave|given|reassigned|transferred)\b[^.;!?]{1,60}?\bto|step(?:s|ped|ping)? (?:in|up|down)|succeed(?:s|ed)?|(?:was|were|has been|got|is|been) (?:appointed|promoted|named|made|put in charge)|appointed|promoted|reassigned|swapped|in charge now|(?:took|taken|taking) the reins)\b/i;
const EN_ADDITIVE = /\b(?:also|too|as well|another|in addition|besides|other)\b/i;
/** The additive words themselves are no part of a slot. */
const ADDITIVE_WORDS = new Set(['also', 'too', 'another', 'addition', 'besides', 'other', 'well']);
const EN_NEGATION = /\b(?:not|no longer|never|n't|anymore)\b/i;
const KO_CORRECTION = /(?:알고\s*보니|사실은|잘못|틀렸)/u;
const KO_RETRACTION = /(?:그만\s*뒀|그만\s*두|끊었|안\s*해|팔았|더\s*이상)/u;
const KO_UPDATE = /(?:바뀌었|바뀜|바뀌|바꿨|변경|이사|옮겼|이제|요즘|새로|새\s|지금은|넘겼|넘겨|넘어갔|맡았|맡게|맡기로|인계|교체|후임|대신)/u;
const KO_ADDITIVE = /(?:또한|그리고\s*또|도\s|도$)/u;
const KO_NEGATION = /(?:아니|안\s|않|없)/u;

function cues(text: string, language: Language): Pick<Statement, 'change' | 'additive' | 'negated'> {
  const [correction, retraction, update, additive, negation] =
    language === 'ko' ? [KO_CORRECTION, KO_RETRACTION, KO_UPDATE, KO_ADDITIVE, KO_NEGATION] : [EN_CORRECTION, EN_RETRACTION, EN_UPDATE, EN_ADDITIVE, EN_NEGATION];
  const negated = negation.test(text);
  const fix = fixOf(text, language);
  if (fix) return { change: { kind: 'correction', cue: fix.cue }, additive: null, negated };
  const c = text.match(correction);
  const r = text.match(retraction);
  const u = text.match(update);
  const change = c && negated ? { kind: 'correction' as const, cue: c[0] } : r ? { kind: 'retraction' as const, cue: r[0] } : u ? { kind: 'update' as const, cue: u[0] } : c ? { kind: 'correction' as const, cue: c[0] } : null;
  return { change, additive: text.match(additive)?.[0] ?? null, negated };
}

// ---- a statement --------------------------------------------------------------------------------

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

export function analyzeStatement(text: string, language: Language): Statement {
  const typed = typedValues(text);
  const skip = (s: number, e: number) => typed.some((f) => s < f.end && e > f.start);
  const found = [...typed, ...(language === 'ko' ? [] : names(text, skip))].sort((a, b) => a.start - b.start);
  const inValue = (s: number, e: number) => found.some((f) => s < f.end && e > f.start);
  const slot = new Set<string>();
  const words = new Set<string>();
  const koValues: StatedValue[] = [];
  for (const m of text.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    const s = stem(w);
    const hangul = /[\uac00-\ud7a3]/u.test(s);
    const counts = hangul ? !KO_STOPWORDS.has(s) && !KO_TIME_WORDS.test(s) : !STOPWORDS.has(w) && s.length > 1;
    if (counts) words.add(s);
    if (inValue(m.index!, m.index! + m[0].length)) continue;
    if (!counts || CHANGE_WORDS.has(w) || TIME_WORDS.has(w) || ADDITIVE_WORDS.has(w) || /^\d+$/.test(w)) continue;
    if (hangul && KO_UPDATE.test(w)) continue;
    // A Korean city is a value, in the romanisation both languages meet on.
    const place = hangul ? canonicalPlace(s) : s;
    if (hangul && place !== s) koValues.push({ kind: 'name', text: s, norm: place.toLowerCase() });
    else slot.add(s);
  }
  const values = [...found.map((f) => f.value), ...koValues];
  const classes = classesOf([...slot, ...words]);
  for (const v of values) if (KIND_CLASSES[v.kind]) classes.add(KIND_CLASSES[v.kind]!);
  // "We moved to Porto", "I'm relocating back to Seoul": a move of home when the place has a name.
  if (/\b(?:[Mm]oved|[Mm]oving|[Rr]elocat(?:ed|ing|e)|[Mm]ove)\s+(?:back\s+|over\s+)?(?:to|into)\s+(?:[\p{Lu}]|the\s+[\p{Lu}])/u.test(text)) classes.add('home');
  return { text, language, holder: holderOf(text, language), values, slot, classes, ...cues(text, language), words };
}

// ---- comparing two statements -------------------------------------------------------------------

/** An earlier memory as resolution sees it. */
export interface EarlierMemory {
  memoryId: string;
  text: string;
  /** Its triple, when it has one: the relation's words count with its text. */
  relation: string | null;
  validFrom: Date;
}

export type ResolutionAction = 'supersede' | 'correct' | 'retract' | 'keep-both';

export interface Resolution {
  memoryId: string;
  action: ResolutionAction;
  /** The rule that decided, in words. */
  rule: string;
  /** What the decision rested on. */
  scores: { slotOverlap: number; sharedClasses: string[]; valueKind: ValueKind | null; oldValue: string | null; newValue: string | null };
}

const sameValue = (a: StatedValue, b: StatedValue): boolean => a.kind === b.kind && a.norm === b.norm && (a.unit ?? '') === (b.unit ?? '');
const comparable = (a: StatedValue, b: StatedValue): boolean => a.kind === b.kind && (a.unit ?? '') === (b.unit ?? '');

/**
 * Types of memory that tell what happened, not what holds: a later statement never makes an
 * event untrue ("I got the job offer from the Austin office" stays true after "I started at Acme").
 */
export const EVENT_TYPES: ReadonlySet<string> = new Set(['milestone', 'episode', 'achievement', 'gift', 'event', 'date']);

/** At most two sentences and forty words: what resolution compares. */
export function statementSized(text: string): boolean {
  // A title's period ends no sentence ("The landlord is Mrs. Okonkwo. They decide.": two).
  const sentences = splitSentences(text).length;
  return sentences <= 2 && (text.match(WORD)?.length ?? 0) <= 40;
}

/** The slot words of one statement the other lacks, the shared slot's own vocabulary aside. */
function unshared(a: Statement, b: Statement, shared: readonly string[]): string[] {
  return [...a.slot].filter((w) => !b.slot.has(w) && !b.words.has(w) && !shared.some((c) => inSet(w, CLASS_MEMBERS.get(c)!)));
}

/** Verbs that pass a thing from one holder to another, and where the thing and the receiver stand. */
const EN_TRANSFER =
  /^(?:(?:yesterday|today|last \w+|this \w+|so|and|also|now)[,]?\s+)*([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*)?)\s+(?:has\s+|have\s+|just\s+)*(?:handed|passed|gave|given|transferred|reassigned|delegated)(?:\s+(?:over|off|on))?\s+(.+?)\s+(?:over\s+|off\s+)?to\s+([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*)?)/u;
const EN_TAKEN_FROM =
  /^(?:(?:yesterday|today|last \w+|this \w+|so|and|also|now)[,]?\s+)*([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*)?)\s+(?:has\s+|have\s+|just\s+)*(?:took|taken|takes|is taking)\s+over\s+(.+?)\s+from\s+([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*)?)/u;
/** "Y succeeded X as R", "Y replaced X as R", "Y took over from X as R": R passes from X to Y. */
const EN_SUCCEEDED =
  /^(?:(?:yesterday|today|last \w+|this \w+|so|and|also|now)[,]?\s+)*([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*)?)\s+(?:has\s+|have\s+|just\s+)*(?:succeeded|replaced|relieved|took over from|has taken over from)\s+([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*)?)\s+as\s+(.+?)[.!]*$/u;
/** "X가 Y에게 R을 넘겼어", "R을 Y에게 넘겼어". */
const KO_TRANSFER = /(?:(\S+?)(?:이|가|은|는)\s+)?(\S+?)(?:에게|한테)\s+(.+?)(?:을|를)\s*(?:넘겼|넘겨줬|넘겨\s*줬|인계했|맡겼)/u;

/** A thing passed on: the giver's and the thing's words (stems), and the receiver as written. */
function transferOf(text: string, language: Language): { from: string[]; thing: string[]; to: string } | null {
  const words = (phrase: string) => [...phrase.matchAll(WORD)].map((m) => stem(m[0].toLowerCase())).filter((w) => !STOPWORDS.has(w) && !CHANGE_WORDS.has(w) && w !== 'role');
  if (language === 'ko') {
    const m = text.match(KO_TRANSFER);
    return m && m[1] ? { from: [stem(m[1])], thing: words(m[3]!), to: m[2]! } : null;
  }
  const given = text.match(EN_TRANSFER);
  if (given) return { from: words(given[1]!), thing: words(given[2]!), to: given[3]! };
  const taken = text.match(EN_TAKEN_FROM);
  if (taken) return { from: words(taken[3]!), thing: words(taken[2]!), to: taken[1]! };
  const succeeded = text.match(EN_SUCCEEDED);
  return succeeded ? { from: words(succeeded[2]!), thing: words(succeeded[3]!), to: succeeded[1]! } : null;
}

/**
 * Whether `next` changes what `earlier` says, and how; null when it is about something else.
 * Pure; `earlier` is analysed here unless given.
 */
export function compareStatements(next: Statement, earlierMemory: EarlierMemory, earlier: Statement = analyzeStatement(earlierMemory.text, next.language)): Resolution | null {
  if (next.holder !== earlier.holder) return null;
  // What only might be changes nothing that holds (mood.ts): "if we move, …", "we might switch to …".
  if (isHypothetical(next.text, next.language)) return null;
  // A change is said in a sentence or two; a long account is not one statement of one slot.
  if (!statementSized(next.text) || !statementSized(earlier.text)) return null;
  const relationWords = earlierMemory.relation ? earlierMemory.relation.split(/\s+/).map(stem).filter((w) => !STOPWORDS.has(w)) : [];
  const earlierSlot = new Set([...earlier.slot, ...relationWords]);
  const earlierClasses = new Set([...earlier.classes, ...classesOf(relationWords)]);
  const sharedClasses = [...next.classes].filter((c) => earlierClasses.has(c));
  // Names count as what a statement is about too ("Gateway port is 9443" / "the gateway listens on
  // 9000"), but a name alone in common is not a slot in common ("I moved to Berlin" / "snow fell on Berlin").
  const nameWords = (st: Statement) => st.values.filter((v) => v.kind === 'name').flatMap((v) => v.norm.split(/\s+/).map(stem));
  const earlierAbout = new Set([...earlierSlot, ...nameWords(earlier)]);
  const slotOverlap = [...next.slot].filter((w) => earlierSlot.has(w) && !STOPWORDS.has(w)).length;
  const overlap = [...new Set([...next.slot, ...nameWords(next)])].filter((w) => earlierAbout.has(w) && !STOPWORDS.has(w)).length;
  // What each says that the other does not: two such qualifiers ("staging" / "production", "auth" / "catalog") are two things.
  const qualifiersApart = (st: Statement, other: Statement) => unshared(st, other, sharedClasses).filter((w) => !relationWords.includes(w) && !nameWords(other).includes(w)).length;
  // A value of the earlier memory that the new statement names ("numpy", "Spanish", "parse_doc").
  const mentioned = earlier.values.find((v) => next.values.some((n) => sameValue(n, v)) || next.words.has(stem(v.norm.split(/\s+/).pop()!))) ?? null;
  // Two counts, ordinals or quantities of one unit are of one slot ("two cats" / "three cats").
  const sameUnit = next.values.some((n) => n.unit && earlier.values.some((o) => comparable(n, o)));
  if (overlap === 0 && sharedClasses.length === 0 && !mentioned && !sameUnit) return null;
  // An event stays true (one that is no change of a state: "I skipped Tuesday's standup", not "I
  // moved to Denver last week"): a later state or a claim of every time ("I've never skipped a
  // standup") at most contradicts it. Both stay, and the decision says so.
  if (tellsAnEvent(earlier.text, next.language) && !earlier.change && (!tellsAnEvent(next.text, next.language) || generalClaim(next.text, next.language))) {
    return { memoryId: earlierMemory.memoryId, action: 'keep-both', rule: 'contradicts an event, which stays true: both kept', scores: { slotOverlap: overlap, sharedClasses, valueKind: null, oldValue: null, newValue: null } };
  }
  // A thing passed from one holder to another ("Ines handed the on-call rotation to Marco"): it
  // changes what the earlier statement says of who holds that thing, when it names the giver.
  const passed = transferOf(next.text, next.language);
  if (passed && passed.from.some((w) => earlier.words.has(w)) && passed.thing.some((w) => earlierSlot.has(w))) {
    return { memoryId: earlierMemory.memoryId, action: 'supersede', rule: `passes ${passed.thing.join(' ')} from ${passed.from.join(' ')} to ${passed.to}`, scores: { slotOverlap: overlap, sharedClasses, valueKind: 'name', oldValue: null, newValue: passed.to } };
  }

  // The values that differ: typed ones of one kind (and unit), or words of a shared class ("vegetarian" / "vegan").
  const pairs = next.values.flatMap((n) => earlier.values.filter((o) => comparable(n, o) && !sameValue(n, o)).map((o) => ({ n, o })));
  let typed = pairs.find((p) => p.n.kind !== 'name') ?? pairs[0] ?? null;
  if (!typed) {
    for (const c of sharedClasses) {
      const [mine, theirs] = [classValues(next.slot, c), classValues(earlierSlot, c)];
      const n = mine.find((w) => !theirs.includes(w));
      const o = theirs.find((w) => !mine.includes(w));
      if (n && o) typed = { n: { kind: 'word', text: n, norm: n }, o: { kind: 'word', text: o, norm: o } };
    }
  }
  const scores = { slotOverlap: overlap, sharedClasses, valueKind: typed?.n.kind ?? null, oldValue: typed?.o.text ?? mentioned?.text ?? null, newValue: typed?.n.text ?? null };
  const resolution = (action: ResolutionAction, rule: string): Resolution => ({ memoryId: earlierMemory.memoryId, action, rule, scores });
  const slot = describeSlot(overlap, sharedClasses);
  const change = next.change;

  // A correction or retraction of the same statement: "turns out I'm not allergic to peanuts".
  const earlierWords = [...earlier.words].filter((w) => w.length > 2 || /[\uac00-\ud7a3]/u.test(w));
  const restated = earlierWords.length > 0 && earlierWords.filter((w) => next.words.has(w)).length / earlierWords.length >= 0.6;
  if (next.negated && restated && !earlier.negated) {
    if (change?.kind === 'correction') return resolution('correct', `corrects it ("${change.cue}" with a negation of what it said)`);
    if (change) return resolution('retract', `says it no longer holds ("${change.cue}")`);
    return resolution('keep-both', 'negates it without saying that it changed or was wrong: unsure');
  }
  // "Also", "another": an addition keeps both, unless it also says that a one-value slot changed
  // ("we adopted another cat, so three cats now").
  const oneTyped = typed !== null && ONE_VALUE_KINDS.has(typed.n.kind);
  if (next.additive && !(change && (mentioned || oneTyped))) {
    return pairs.length || mentioned || typed ? resolution('keep-both', `said as an addition ("${next.additive}"): both kept`) : null;
  }
  // Two qualifiers apart ("staging" / "production") are two things when the value has a shape of
  // its own (a port, a host, a path) or is the same on both sides; where the value is words, the
  // words that differ may be the value itself ("skyfox" / "nightowl").
  const shaped = (v: StatedValue) => v.kind !== 'name' && v.kind !== 'word';
  const sameShapedValue = next.values.some((n) => shaped(n) && earlier.values.some((o) => sameValue(n, o)));
  const apart = qualifiersApart(next, earlier) > 0 && qualifiersApart(earlier, next) > 0;
  if (apart && ((typed && shaped(typed.n)) || sameShapedValue)) return null;
  if (sameShapedValue && !typed) return null; // the same port, host or path said of something else
  // Only the vocabulary in common, and each names its slot with a word the other lacks ("the
  // package manager is …" / "the team lead is …"): two slots that one class of words happens to
  // cover, unless the new statement names the earlier value.
  if (apart && slotOverlap === 0 && !mentioned) return null;
  // A value the new statement has that the earlier one did not: what it changed to.
  const newValue = next.values.some((n) => !earlier.values.some((o) => sameValue(n, o)) && !earlier.words.has(stem(n.norm.split(/\s+/).pop()!)));
  const saysMore = unshared(next, earlier, sharedClasses).length > 0;
  if (change && mentioned && change.kind !== 'correction' && (slotOverlap > 0 || sharedClasses.length > 0) && (newValue || saysMore || change.kind === 'retraction' || typed)) {
    return resolution('supersede', `names the earlier value ${JSON.stringify(mentioned.text)} as what changed ("${change.cue}")`);
  }
  if (change?.kind === 'retraction' && overlap > 0) return resolution('supersede', `says what it said has ended ("${change.cue}"), about the same slot (${slot})`);
  if (!typed) {
    // No two values to compare: the words that differ are the values ("skyfox" / "nightowl"), when
    // the slot is clearly one (two words in common, or one and its vocabulary), the differences
    // are few, and neither side has a value of a shape the other lacks (a port against a host).
    const mine = unshared(next, earlier, sharedClasses);
    const theirs = unshared(earlier, next, sharedClasses).filter((w) => !relationWords.includes(w));
    const shapes = (st: Statement) => new Set(st.values.filter(shaped).map((v) => v.kind));
    const [ours, others] = [shapes(next), shapes(earlier)];
    const shapesApart = [...ours].some((k) => !others.has(k)) || [...others].some((k) => !ours.has(k));
    const clearSlot = slotOverlap >= 2 || (slotOverlap >= 1 && sharedClasses.length > 0);
    if (change && clearSlot && !shapesApart && mine.length > 0 && theirs.length > 0 && mine.length <= 3 && theirs.length <= 3) {
      return resolution('supersede', `the same slot (${slot}) with other words for its value, and a change ("${change.cue}")`);
    }
    return null;
  }
  // Anything else that differs besides the one value: another qualifier ("staging" / "production"), another name.
  const otherNames = next.values.filter((v) => v.kind === 'name' && v !== typed!.n && !earlier.values.some((o) => sameValue(o, v)) && !earlier.words.has(stem(v.norm))).length;
  const otherDifferences = unshared(next, earlier, sharedClasses).length + unshared(earlier, next, sharedClasses).filter((w) => !relationWords.includes(w)).length + otherNames;
  if (change) {
    if (otherNames > 0 && overlap === 0 && typed.n.kind !== 'name') return resolution('keep-both', `a change ("${change.cue}") of another ${typed.n.kind}, but about another name: unsure`);
    // A name in common is no slot in common ("Priya took over the hiring plan" / "Priya leads the
    // team"), unless the name is the earlier value the change replaces ("I replaced the Golf with a Corolla").
    if (typed.n.kind === 'name' && slotOverlap === 0 && sharedClasses.length === 0 && mentioned !== typed.o) return null;
    return resolution(change.kind === 'correction' ? 'correct' : 'supersede', `the same slot (${slot}), another ${typed.n.kind}, and a change ("${change.cue}")`);
  }
  // No cue: a slot of one value, and nothing else that differs.
  const oneValue = oneTyped || sharedClasses.some((c) => ONE_VALUE_CLASSES.has(c));
  if (oneValue && otherDifferences === 0) return resolution('supersede', `the same slot (${slot}) holds one ${typed.n.kind}, and only it differs`);
  if (otherDifferences > 0) return null; // another qualifier: a look-alike
  return resolution('keep-both', `the same slot (${slot}) and another ${typed.n.kind}, but nothing says it changed: unsure`);
}

function describeSlot(overlap: number, classes: string[]): string {
  return [overlap ? `${overlap} word${overlap === 1 ? '' : 's'} in common` : '', classes.length ? `vocabulary: ${classes.join(', ')}` : ''].filter(Boolean).join('; ');
}

/**
 * The earlier memories a new statement changes, best first: each compared, those it replaces
 * (supersede, correct, retract) and those it resembles without enough evidence (keep-both).
 * A statement changes only what was said before it: a memory said at the statement's time or
 * later (`saidAt`) is kept, so that a late, older statement fills history and never retires what
 * is current. Each replacement says from when (`retireFrom`): the statement's valid time, or,
 * when that falls before the memory's own start ("our second child was born last week" after "I
 * have one kid" said yesterday), the statement's time.
 */
export function resolveStatement(
  text: string,
  language: Language,
  when: { validFrom: Date; saidAt: Date },
  earlier: readonly (EarlierMemory & { saidAt: Date })[],
  /** How a text is analysed: `analyzeStatement`, or a caller's cache of it (the same memories are compared again and again). */
  analyze: (text: string, language: Language) => Statement = analyzeStatement,
): (Resolution & { retireFrom: Date })[] {
  const next = analyze(text, language);
  const out: (Resolution & { retireFrom: Date })[] = [];
  for (const memory of earlier) {
    const r = compareStatements(next, memory, analyze(memory.text, language));
    if (!r) continue;
    if (r.action !== 'keep-both' && memory.saidAt.getTime() >= when.saidAt.getTime()) {
      out.push({ ...r, action: 'keep-both', rule: `${r.rule}, but the memory was said no earlier than this statement: both kept`, retireFrom: when.validFrom });
      continue;
    }
    const retireFrom = r.action === 'correct' ? memory.validFrom : when.validFrom > memory.validFrom ? when.validFrom : when.saidAt;
    out.push({ ...r, retireFrom });
  }
  const rank = (r: Resolution) => (r.action === 'keep-both' ? 1 : 0);
  return out.sort((a, b) => rank(a) - rank(b) || b.scores.slotOverlap - a.scores.slotOverlap);
}

/** The keep-both rules that are a contradiction (a negation nobody called a change, an event and a claim against it), not two values of one slot. */
const CONTRADICTING = /negates it|contradicts an event/;

/** Of two memories shown together, the later one contradicts the earlier, and both were kept (unsure, or an event beside a claim against it). */
export interface Contradiction {
  earlier: string;
  later: string;
  rule: string;
}

/**
 * The pairs among memories shown together where the later contradicts the earlier and neither
 * replaced the other (resolution kept both: a negation nobody called a change or a mistake, an
 * event beside a claim against it), so that a context can show them as a conflict rather than as
 * two facts. Same speaker, statement-sized texts only (what resolution compares); two values of
 * one slot with nothing said of a change are no conflict here (look-alikes are often both true).
 * On a context's answer path: pairs are read only where one says no and two words are shared.
 */
export function contradictionsAmong(
  memories: readonly { memoryId: string; text: string; speaker: string; saidAt: Date }[],
  analyze: (text: string, language: Language) => Statement = analyzeStatement,
): Contradiction[] {
  const said = memories.filter((m) => statementSized(m.text)).sort((a, b) => +a.saidAt - +b.saidAt);
  // A contradiction says no to the other (a negation, or a claim of every time): pairs with none are passed over unread.
  const saysNo = said.map((m) => (HANGUL.test(m.text) ? KO_NEGATION : EN_NEGATION).test(m.text) || generalClaim(m.text, HANGUL.test(m.text) ? 'ko' : 'en'));
  if (said.length < 2 || !saysNo.some(Boolean)) return [];
  // Only pairs with two words in common are analysed: most memories shown together share none (a context's answer path).
  const wordsOf = said.map((m) => new Set((m.text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 2 && !STOPWORDS.has(w)).map(stem)));
  const analysed = new Map<string, Statement>();
  const statement = (text: string, language: Language): Statement => analysed.get(text) ?? (analysed.set(text, analyze(text, language)), analysed.get(text)!);
  const out: Contradiction[] = [];
  for (let j = 1; j < said.length; j++) {
    const later = said[j]!;
    const language = HANGUL.test(later.text) ? 'ko' : 'en';
    for (let i = 0; i < j; i++) {
      const earlier = said[i]!;
      if (earlier.speaker !== later.speaker || !(saysNo[i] || saysNo[j]) || [...wordsOf[i]!].filter((w) => wordsOf[j]!.has(w)).length < 2) continue;
      const r = compareStatements(statement(later.text, language), { memoryId: earlier.memoryId, text: earlier.text, relation: null, validFrom: earlier.saidAt }, statement(earlier.text, language));
      if (r?.action === 'keep-both' && CONTRADICTING.test(r.rule)) out.push({ earlier: earlier.memoryId, later: later.memoryId, rule: r.rule });
    }
  }
  return out;
}

/** The words a question asks for a slot by ("What's my job?", "How do I get to work?"). */
const ASKED_BY: Readonly<Record<string, readonly string[]>> = {
  home: ['home', 'live', 'address', 'based'],
  email: ['email', 'mail'],
  phone: ['phone', 'number'],
  job: ['job', 'work', 'occupation', 'profession'],
  employer: ['employer', 'company', 'work'],
  manager: ['manager', 'boss', 'lead'],
  username: ['username', 'handle'],
  sleep: ['sleep', 'bed', 'bedtime'],
  commute: ['commute', 'work', 'travel'],
  car: ['car', 'drive'],
  drink: ['drink'],
  diet: ['diet', 'eat'],
  language: ['language', 'learn', 'speak'],
  school: ['school', 'grade', 'study'],
  tool: ['tool', 'use'],
  timeout: ['timeout'],
  port: ['port'],
  version: ['version'],
  path: ['path'],
  name: ['name'],
  allergy: ['allergy', 'allergic'],
  pet: ['pet'],
  preference: ['prefer', 'favourite', 'favorite'],
};

/** The same, in Korean, for a Korean memory. */
const ASKED_BY_KO: Readonly<Record<string, readonly string[]>> = {
  home: ['집', '주소', '사는', '살아'],
  email: ['이메일', '메일'],
  phone: ['전화번호', '번호', '연락처', '휴대폰'],
  job: ['직업', '일'],
  employer: ['회사', '직장'],
  manager: ['팀장', '상사'],
  username: ['아이디', '닉네임'],
  sleep: ['잠', '자는'],
  commute: ['출근'],
  car: ['차', '자동차'],
  drink: ['음료', '마시는'],
  language: ['언어', '공부'],
  school: ['학교', '학년'],
  pet: ['반려동물'],
};

/**
 * The words a memory is searched by besides its own (recall's index, `key_text`): the names of
 * the slots its statement speaks of, as a question asks for them ("What's my job?" of "I now
 * teach biology"), and, in Korean, its words without their particles ("점심시간이" as
 * "점심시간"). Pure; the same vocabulary as resolution.
 */
export function searchTermsOf(text: string, language: Language): string[] {
  const st = analyzeStatement(text, language);
  const terms = new Set<string>();
  for (const c of st.classes) for (const w of (language === 'ko' ? ASKED_BY_KO[c] : ASKED_BY[c]) ?? []) terms.add(w);
  if (language === 'ko') for (const w of st.words) if (/[\uac00-\ud7a3]/u.test(w)) terms.add(w);
  return [...terms];
}

/**
 * What a memory's slot is searched by when a newer statement takes it over in other words: its
 * slot words (without its values: the new statement has its own) and the slot's question words.
 */
export function slotTermsOf(text: string, language: Language): string[] {
  const st = analyzeStatement(text, language);
  // The words as written (a search engine stems them its own way), those of the slot.
  const written = [...text.matchAll(WORD)].map((m) => m[0].toLowerCase()).filter((w) => st.slot.has(stem(w)));
  return [...new Set([...written, ...searchTermsOf(text, language)])];
}

/** The batch label of a message's retirements by resolution: `resolution:<messageId>`. */
export const RESOLUTION_BATCH = 'resolution:';

/** The words an earlier memory may be found by: the statement's stems (Korean words as written), values and its vocabulary. */
export function searchWordsOf(statement: Statement): string[] {
  const vocabulary = [...statement.classes].flatMap((c) => SLOT_CLASSES[c]!.heads.filter((w) => w.length > 2 || /[\uac00-\ud7a3]/u.test(w)));
  return [...new Set([...statement.words, ...vocabulary])].filter((w) => w.length > 1 || /[\uac00-\ud7a3]/u.test(w)).slice(0, 40);
}
