/**
 * Restatement by frame alignment (R28), pure: is a new statement an earlier one said again with
 * one value changed ("The staging database runs on db-07.internal." → "… on db-09.internal.")?
 * Similarity cannot tell (a changed value is closer to the old sentence than any paraphrase,
 * seed 004); the sentence's structure can. Two statements are aligned token by token after
 * normalisation (case, punctuation, articles; Korean particles split off their words): what they
 * share before and after one differing stretch is the *frame*, the stretches are the *values*.
 *
 * Aligning is not yet replacing: statements that share a frame are often all true. `judgeFrame`
 * says whether the frame holds one value (a copula after a relational noun phrase, a value with a
 * shape of its own — a number, version, date, time or identifier —, a definite class noun before
 * the value, a superlative, a predicate that holds one value by its meaning, the key's own
 * cardinality), a set (an addition, an event, which accumulates), or is unsure (keep both and say
 * so). The rules are of the language, not of any data set's sentences.
 */
import { normalizeTerm } from './keys';
import { en, endingPattern, ko } from './language';
import type { Cardinality } from './memory';
import { isHypothetical } from './message/mood';

export type FrameLanguage = 'en' | 'ko';

/** One token of a statement as aligned. */
export interface FrameToken {
  /** Compared: lower-cased, NFC, without surrounding punctuation; a Korean particle in a canonical form. */
  norm: string;
  /** Offsets into the statement's text, for the value as written. */
  start: number;
  end: number;
  /** Capitalised as written (part of a name). */
  capital: boolean;
  /** Punctuation (a comma, a colon) followed the token: a phrase boundary. */
  breakAfter: boolean;
  /** A Korean particle or copula split off its word. */
  particle: boolean;
}

export interface FramedStatement {
  text: string;
  language: FrameLanguage;
  /** The tokens compared (articles left out). */
  tokens: FrameToken[];
  /** Whether an article stood right before each token ("the sport of …"). */
  definite: boolean[];
  /** Index of the first token of the predicate (the verb, the copula, or what follows a Korean topic); -1 when none is found. */
  predicate: number;
}

/** Longest statement aligned: a longer text is an account, not one statement of one value. */
export const MAX_FRAME_TOKENS = 40;
/** Longest value stretch on either side. */
const MAX_VALUE_TOKENS = 8;
/** Fewest tokens the shared frame must have. */
const MIN_FRAME_TOKENS = 2;

const ARTICLES: ReadonlySet<string> = new Set(en.articles);
const COPULAS: ReadonlySet<string> = new Set(en.copulas);
const AUXILIARIES: ReadonlySet<string> = new Set([...en.copulas, ...en.auxiliaries]);
const SUBJECT_PRONOUNS: ReadonlySet<string> = new Set(en.subjectPronouns);
/** Irregular past forms that carry a clause (most verbs end in -s or -ed where it matters). */
const IRREGULAR_VERBS: ReadonlySet<string> = new Set(en.irregularPastVerbs);
const DETERMINERS: ReadonlySet<string> = new Set([...en.determiners, ...en.quantifiers]);
const PREPOSITIONS: ReadonlySet<string> = new Set(en.prepositions);
const CONJUNCTIONS: ReadonlySet<string> = new Set(en.conjunctions);
const PERSONAL: ReadonlySet<string> = new Set([...en.personalPronouns, ...ko.personalPronouns]);

const HANGUL = /[\uac00-\ud7a3]/u;
/** Korean copula endings at a clause's end, each with one canonical form. */
const { copula: C, particles: P } = ko;
const KO_COPULA: [RegExp, string][] = [
  [endingPattern([...C.pastPolite, ...C.pastPlain, ...C.pastWritten]), '이었다'],
  [endingPattern(C.present), '이다'],
  [endingPattern(C.short), '이다'],
];
/** Korean particles that stay on a word, with one canonical form each (은/는 are one particle); the first group that matches. */
const KO_PARTICLES: [RegExp, string][] = [
  [endingPattern([...P.placeOfAction, ...P.dative, ...P.until, ...P.from]), ''],
  [endingPattern(P.direction), '로'],
  [endingPattern(P.topic), '는'],
  [endingPattern(P.subject), '가'],
  [endingPattern(P.object), '를'],
  [endingPattern(P.with), '와'],
  [endingPattern([...P.place, ...P.possessive, ...P.also, ...P.only]), ''],
];

function koSplit(word: string, final: boolean): { stem: string; particle: string | null; canonical: string } | null {
  if (word.length < 2) return null;
  if (final) {
    for (const [re, canonical] of KO_COPULA) {
      const m = word.match(re);
      if (m && word.length > m[0].length) return { stem: word.slice(0, -m[0].length), particle: m[0], canonical };
    }
    return null;
  }
  // A two-syllable word keeps a final 의 ("회의") or 이 ("아이"): too short to be a word and its particle.
  for (const [re, canonical] of KO_PARTICLES) {
    const m = word.match(re);
    if (!m || word.length <= m[0].length) continue;
    if (word.length === 2 && /[의이]$/u.test(word)) return null;
    return { stem: word.slice(0, -m[0].length), particle: m[0], canonical: canonical || m[0] };
  }
  return null;
}

const EDGE_PUNCT = /^[\s"'“”‘’«»()[\]{}<>*_`~]+|[\s"'“”‘’«»()[\]{}<>*_`~,;:!?.]+$/gu;

/** The statement as tokens ready to align, or null when it is too long to be one statement. */
export function frameStatement(text: string, language: FrameLanguage): FramedStatement | null {
  const raw: { word: string; start: number; end: number; breakAfter: boolean }[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    const chunk = m[0];
    const lead = chunk.length - chunk.replace(/^[\s"'“”‘’«»()[\]{}<>*_`~]+/u, '').length;
    const word = chunk.replace(EDGE_PUNCT, '');
    if (!word) continue;
    const start = m.index! + lead;
    const trail = chunk.slice(lead + word.length);
    raw.push({ word, start, end: start + word.length, breakAfter: /[,;:!?]/u.test(trail) || /\.$/u.test(trail) });
  }
  if (raw.length === 0 || raw.length > MAX_FRAME_TOKENS) return null;
  const tokens: FrameToken[] = [];
  const definite: boolean[] = [];
  let article = false;
  raw.forEach((r, i) => {
    const norm = r.word.normalize('NFC').toLowerCase().replace(/[’‘]/gu, "'");
    if (language === 'en' && ARTICLES.has(norm)) {
      article = true;
      return;
    }
    const capital = /^\p{Lu}/u.test(r.word);
    const split = HANGUL.test(norm) ? koSplit(norm, i === raw.length - 1 || r.breakAfter) : null;
    if (split) {
      const cut = r.start + split.stem.length;
      tokens.push({ norm: split.stem, start: r.start, end: cut, capital, breakAfter: false, particle: false });
      definite.push(article);
      tokens.push({ norm: split.canonical, start: cut, end: r.end, capital: false, breakAfter: r.breakAfter, particle: true });
      definite.push(false);
    } else {
      tokens.push({ norm, start: r.start, end: r.end, capital, breakAfter: r.breakAfter, particle: false });
      definite.push(article);
    }
    article = false;
  });
  return { text, language, tokens, definite, predicate: predicateOf(tokens, language) };
}

const verbLike = (t: FrameToken, before: FrameToken | undefined): boolean => {
  if (t.capital || t.particle || !/^[a-z][a-z'-]*$/u.test(t.norm) || t.norm.length < 3) return false;
  if (before && (DETERMINERS.has(before.norm) || PREPOSITIONS.has(before.norm))) return false;
  if (IRREGULAR_VERBS.has(t.norm)) return true;
  if (/(?:ss|us|is|ics|'s)$/u.test(t.norm)) return false;
  return /[^s]s$|ed$/u.test(t.norm);
};

/** Where the predicate starts: after the subject, which never holds the value. */
function predicateOf(tokens: FrameToken[], language: FrameLanguage): number {
  if (language === 'ko') {
    const topic = tokens.findIndex((t) => t.particle && (t.norm === '는' || t.norm === '가'));
    return topic >= 0 ? topic + 1 : tokens.length > 1 ? 1 : -1;
  }
  const first = firstWord(tokens);
  // "I'm", "it's", "we're": a subject and its verb in one token.
  if (/^(?:i|you|we|they|he|she|it|that|there|who)'(?:m|re|s|ve|ll|d)$/u.test(tokens[first]?.norm ?? '')) return first;
  for (let i = first + 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (AUXILIARIES.has(t.norm)) return i;
    if (i - 1 === first && SUBJECT_PRONOUNS.has(tokens[i - 1]!.norm)) return i;
    if (verbLike(t, tokens[i - 1])) return i;
  }
  return -1;
}

/** The first token a value may start at: after an English verb; in Korean, right after the topic (the verb comes last). */
const valueFrom = (s: FramedStatement): number => (s.language === 'en' ? s.predicate + 1 : s.predicate);

/**
 * The words every statement that can be aligned with this one begins with, as written: in English
 * the subject and the verb (the value comes after them), so that a look-up finds exactly the
 * statements of the same subject and verb however many share their first words ("The owner of
 * repository …"). Null in Korean, where the value comes before the verb and a topic's particle
 * may vary: there the look-up goes by the first word.
 */
export function frameStem(s: FramedStatement): string | null {
  if (s.language !== 'en' || s.predicate < 0) return null;
  return s.text.slice(0, s.tokens[s.predicate]!.end);
}

const FRAME_ARTICLES: ReadonlySet<string> = new Set(en.articles);

/**
 * A statement's start as restatement's look-up compares it, the same steps as the database's
 * fl_frame_text (migrations/functions/fl_frame_text.sql), which stays the authority: lower-cased,
 * every run of characters other than letters, digits and apostrophes made one space, the
 * articles left out, the first 400 characters read and 160 kept. The ledger uses it only to guess
 * which of an append's new memories the look-up will find (the frame guard checks the guess).
 */
export function frameText(text: string): string {
  const words = text
    .slice(0, 400)
    .replace(/’/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .toLowerCase()
    .split(' ');
  return words
    .filter((w) => w !== '' && !FRAME_ARTICLES.has(w))
    .join(' ')
    .slice(0, 160);
}

/** The first token that is a word of the sentence, after a speaker's label ("Caroline:"). */
function firstWord(tokens: FrameToken[]): number {
  return tokens[0]?.breakAfter && tokens.length > 1 ? 1 : 0;
}

const isBoundary = (t: FrameToken): boolean => t.particle || AUXILIARIES.has(t.norm) || PREPOSITIONS.has(t.norm) || CONJUNCTIONS.has(t.norm) || DETERMINERS.has(t.norm) || PERSONAL.has(t.norm);

export interface Alignment {
  /** Tokens shared before the values, and after them. */
  prefix: number;
  suffix: number;
  /** The values' token ranges [start, end) in each statement. */
  earlier: { start: number; end: number; value: string };
  next: { start: number; end: number; value: string };
  /** The frame as words, the value's place marked "…" (the new statement's words). */
  frame: string;
  /** Share of the two statements' tokens that the frame covers. */
  score: number;
}

const valueText = (s: FramedStatement, start: number, end: number): string => s.text.slice(s.tokens[start]!.start, s.tokens[end - 1]!.end);

/**
 * The two statements as one frame with one value changed, or null: they differ in more than one
 * stretch, in the subject (another holder) or in the predicate itself, not at all, by an insertion
 * alone, or the frame is too small to say anything. The values are widened to whole phrases
 * ("American football", "50 GB"), so that one frame keeps one shape across restatements.
 */
export function alignFrames(earlier: FramedStatement, next: FramedStatement): Alignment | null {
  if (earlier.language !== next.language) return null;
  const [a, b] = [earlier.tokens, next.tokens];
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix]!.norm === b[prefix]!.norm) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix]!.norm === b[b.length - 1 - suffix]!.norm) suffix++;
  if (prefix + suffix >= a.length || prefix + suffix >= b.length) return null; // the same words, or one inside the other
  // Whole phrases: shared words that belong to the value's phrase go with it.
  while (suffix > 0 && !isBoundary(a[a.length - suffix]!) && !a[a.length - suffix - 1]!.breakAfter && !b[b.length - suffix - 1]!.breakAfter) suffix--;
  const predicate = next.predicate;
  if (predicate < 0 || earlier.predicate !== predicate) return null;
  const from = valueFrom(next);
  // A name's or a number's first words go with it ("American football", "New Delhi"); a lowercase word stays the frame's ("port").
  while (prefix > from && !isBoundary(a[prefix - 1]!) && !a[prefix - 1]!.breakAfter && (a[prefix - 1]!.capital || /^\d/u.test(a[prefix - 1]!.norm))) prefix--;
  // The values start after the subject (and an English verb): those are the frame's.
  if (prefix < from) return null;
  const [aEnd, bEnd] = [a.length - suffix, b.length - suffix];
  if (aEnd - prefix > MAX_VALUE_TOKENS || bEnd - prefix > MAX_VALUE_TOKENS) return null;
  // A verb of its own inside one value and not the other ("… takes 40 minutes" / "… is now 12 GB"):
  // the predicate was read too early, and the statements say different things.
  const verbs = (t: FrameToken[], from: number, to: number) =>
    t
      .slice(from, to)
      .filter((x) => AUXILIARIES.has(x.norm))
      .map((x) => x.norm)
      .join(' ');
  if (verbs(a, prefix, aEnd) !== verbs(b, prefix, bEnd)) return null;
  if (prefix + suffix < MIN_FRAME_TOKENS) return null;
  const frameWords = [...b.slice(0, prefix).map((t) => t.norm), '…', ...b.slice(bEnd).map((t) => t.norm)].join(' ');
  return {
    prefix,
    suffix,
    earlier: { start: prefix, end: aEnd, value: valueText(earlier, prefix, aEnd) },
    next: { start: prefix, end: bEnd, value: valueText(next, prefix, bEnd) },
    frame: frameWords,
    score: Math.round((100 * 2 * (prefix + suffix)) / (a.length + b.length)) / 100,
  };
}

/** The key a frame becomes: the subject as written, and the predicate with the value's place marked "…". */
export function frameKey(next: FramedStatement, alignment: Alignment): { subject: string; relation: string } {
  const t = next.tokens;
  const subjectEnd = lastBefore(t, next.predicate);
  const subject = next.text.slice(firstWord(t) === 1 ? t[1]!.start : 0, subjectEnd).trim();
  const before = next.text.slice(subjectEnd, t[alignment.next.start]!.start).trim();
  const lastToken = t[t.length - 1]!;
  const after = alignment.suffix > 0 ? next.text.slice(t[alignment.next.end - 1]!.end, lastToken.end).trim() : '';
  return { subject: subject || before, relation: [before, FRAME_MARK, after].filter(Boolean).join(' ') };
}

/** End offset of the subject: where the token before the predicate ends (a Korean topic particle is the predicate's). */
function lastBefore(t: FrameToken[], predicate: number): number {
  let i = predicate - 1;
  while (i > 0 && t[i]!.particle) i--;
  return t[Math.max(0, i)]!.end;
}

/** The mark of a value's place in a frame key's relation: how a key that frame alignment made is known. */
export const FRAME_MARK = '…';

export const isFrameKey = (relation: string | null): boolean => relation !== null && relation.includes(FRAME_MARK);

// ---- one value or a set -------------------------------------------------------------------------

export const FRAME_HOLDS = ['one', 'many', 'unsure'] as const;
export type FrameHolds = (typeof FRAME_HOLDS)[number];

export interface FrameJudgement {
  holds: FrameHolds;
  /** The rule that decided, in words. */
  rule: string;
}

/** Predicates that hold one value at a time by their meaning: a spouse, a birthplace, an employer, an author (the first found names the rule). */
const ONE_VALUE_PREDICATES = en.oneValuePredicates;
/** Korean verbs that hold one place or one employer at a time, matched as a word's start. */
const KO_ONE_VALUE_VERBS = ko.oneValueVerbs;
/** Words that make a role one of a kind ("favourite", "main", "current", "-est"). */
const UNIQUE_WORDS: ReadonlySet<string> = new Set([...en.uniqueWords, ...ko.uniqueWords]);
/** Verbs of what happens: events accumulate, a later one never undoes an earlier one (Korean: a word's start). */
const EVENT_VERBS: ReadonlySet<string> = new Set([...en.eventVerbs, ...ko.eventVerbs]);
/** Verbs whose objects make a set: what one speaks, uses, likes, depends on, has (Korean: a word's start). */
const SET_VERBS: ReadonlySet<string> = new Set([...en.setVerbs, ...ko.setVerbs]);
const ADDITIVE = /\b(?:also|too|as well|in addition|additionally|another|besides)\b|(?:또한|역시)|\S도\s/iu;

/** What the value says by its shape: a number, version, date, time or identifier holds one value. */
const DATE_WORDS = new RegExp(String.raw`^(?:(?:on|in|by|until|next|this)\s+)?(?:${[...en.months, ...en.monthAbbreviations, ...en.weekdays, ...ko.weekdays].join('|')})$`, 'iu');

export function valueShape(value: string): 'number' | 'identifier' | 'date' | null {
  if (/^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/u.test(value) || /^https?:\/\//u.test(value) || /^\/[\w./-]+$/u.test(value)) return 'identifier';
  if (/^[a-z][\w-]*(?:\.[a-z][\w-]*)+$/iu.test(value) || /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/u.test(value) || /^[a-z]+[A-Z]\w*$/u.test(value)) return 'identifier';
  if (/\d/u.test(value)) return 'number';
  if (DATE_WORDS.test(value.trim())) return 'date';
  return null;
}

const words = (s: FramedStatement, from: number, to: number): string[] => s.tokens.slice(from, to).map((t) => t.norm);

/** Whether `seq` holds the phrase; its first word also in the plain form ("live in" for "lives in"). */
function hasPhrase(seq: string[], phrase: readonly string[]): boolean {
  const matches = (word: string | undefined, w: string, first: boolean) => word === w || (first && w.endsWith('s') && word === w.slice(0, -1));
  for (let i = 0; i + phrase.length <= seq.length; i++) if (phrase.every((w, j) => matches(seq[i + j], w, j === 0))) return true;
  return false;
}

/**
 * Whether the aligned frame holds one value (the new statement replaces the earlier one), a set
 * (both stay) or is unsure (both stay, and the record says so). First what the tenant's own
 * history says (`keyed`: the earlier statement is in a frame key, so this frame was restated and
 * replaced before), then what the sentence says.
 */
export function judgeFrame(earlier: FramedStatement, next: FramedStatement, alignment: Alignment, keyed = false): FrameJudgement {
  if (ADDITIVE.test(next.text)) return { holds: 'many', rule: 'said as an addition: both kept' };
  if (keyed) return { holds: 'one', rule: 'the frame was restated with another value before, and replaced then' };
  const frame = [...words(next, 0, alignment.prefix), ...words(next, alignment.next.end, next.tokens.length)];
  // The verb: between the subject and the value in English, after the value in Korean.
  const predicate = next.language === 'en' ? words(next, next.predicate, alignment.prefix) : words(next, alignment.next.end, next.tokens.length);
  const one = ONE_VALUE_PREDICATES.find((p) => hasPhrase(frame, p));
  if (one) return { holds: 'one', rule: `"${one.join(' ')}" holds one value at a time` };
  const event = predicate.find((w) => EVENT_VERBS.has(w) || (HANGUL.test(w) && ko.eventVerbs.some((e) => w.startsWith(e))));
  if (event) return { holds: 'many', rule: `"${event}" tells an event, and events accumulate: both kept` };
  const shapes = [valueShape(alignment.earlier.value), valueShape(alignment.next.value)];
  if (shapes[0] && shapes[1]) return { holds: 'one', rule: `the value is a ${shapes[1]} on both sides, which one frame holds one of` };
  const unique = frame.find((w) => UNIQUE_WORDS.has(w) || (/^[a-z]{3,}est$/u.test(w) && !/(?:interest|request|forest|guest|test|rest|west|chest|contest|protest|honest|modest)$/u.test(w)));
  if (unique) return { holds: 'one', rule: `"${unique}" makes the role one of a kind` };
  const lastBeforeValue = next.tokens[alignment.prefix - 1]!;
  const subject = next.tokens.slice(0, next.predicate);
  if (next.language === 'en') {
    // "The head of the platform team is …", "Tom's laptop is …", "The type of music that X plays is …".
    const relational =
      (next.definite[firstWord(next.tokens)] === true && subject.some((t) => PREPOSITIONS.has(t.norm) || CONJUNCTIONS.has(t.norm))) ||
      subject.some((t) => /'s$/u.test(t.norm) || ['my', 'our', 'your', 'his', 'her', 'their', 'its'].includes(t.norm));
    const copulaBeforeValue = COPULAS.has(lastBeforeValue.norm);
    if (relational && copulaBeforeValue) return { holds: 'one', rule: 'a relational noun phrase and a copula before the value: it names one' };
    // "The deadline is Friday.", "Our office is in Berlin.": a definite thing is one thing, and it is, or is at, one named thing.
    const named = [alignment.earlier, alignment.next].every((v, i) => [earlier, next][i]!.tokens[v.start]!.capital);
    const definite = next.definite[firstWord(next.tokens)] === true || relational;
    const locative = ['in', 'at'].includes(lastBeforeValue.norm) && COPULAS.has(next.tokens[alignment.prefix - 2]?.norm ?? '');
    if (definite && named && (copulaBeforeValue || locative)) {
      return { holds: 'one', rule: `a definite subject and a copula${locative ? ` with "${lastBeforeValue.norm}"` : ''} before a name: it names one` };
    }
    // "… the sport of X", "… in the city of X": a definite class noun right before the value.
    const of = lastBeforeValue.norm === 'of' ? alignment.prefix - 2 : -1;
    if (of >= 0 && next.definite[of] && !PERSONAL.has(next.tokens[of]!.norm) && !isBoundary(next.tokens[of]!)) {
      return { holds: 'one', rule: `"the ${next.tokens[of]!.norm} of" before the value names one` };
    }
    // "… represented by the music label X", "… is the band X": a definite class noun in apposition, after "by" or a copula.
    const start = next.definite.lastIndexOf(true, alignment.prefix - 1);
    const np = start >= 0 ? next.tokens.slice(start, alignment.prefix) : [];
    const before = next.tokens[start - 1];
    if (np.length > 0 && np.length <= 3 && !np.some(isBoundary) && before && (before.norm === 'by' || COPULAS.has(before.norm))) {
      return { holds: 'one', rule: `"the ${np.map((t) => t.norm).join(' ')}" before the value names one` };
    }
  } else {
    // "회의실 예약 담당자는 …입니다": a topic that is not a person's pronoun and a copula after the value.
    const copula = next.tokens[alignment.next.end]?.particle && /^이(?:다|었다)$/u.test(next.tokens[alignment.next.end]!.norm);
    // The topic's head, not its modifiers ("우리 팀 회의는": the meeting, not "we").
    const head = subject.filter((t) => !t.particle).pop();
    if (copula && head && !PERSONAL.has(head.norm)) return { holds: 'one', rule: 'a topic and a copula after the value: it names one' };
    const verb = predicate.find((w) => KO_ONE_VALUE_VERBS.some((v) => w.startsWith(v)));
    if (verb) return { holds: 'one', rule: `"${verb}" holds one place at a time` };
  }
  const setVerb = predicate.find((w) => SET_VERBS.has(w) || (HANGUL.test(w) && ko.setVerbs.some((e) => w.startsWith(e))));
  if (setVerb) return { holds: 'many', rule: `"${setVerb}" takes several values at once: both kept` };
  return { holds: 'unsure', rule: 'nothing says the frame holds one value: both kept, unsure' };
}

/** Whether the frame speaks of the speaker or the listener ("my", "I", "우리"): then only that speaker's memories are its. */
export function personalFrame(s: FramedStatement): boolean {
  return s.tokens.some((t) => PERSONAL.has(t.norm));
}

// ---- what a new statement does to the earlier ones it restates ---------------------------------

/** An earlier memory a new statement may restate, as the read model has it. */
export interface EarlierStatement {
  memoryId: string;
  text: string;
  speaker: string;
  authority: number;
  validFrom: Date;
  /** When it was said (not when the ledger learned it): only what was said before the new statement can be replaced by it. */
  saidAt: Date;
  /** Its frame key, when an earlier restatement wrote it under one (see FRAME_MARK). */
  key: { subject: string; relation: string; scope: Record<string, string> } | null;
}

/** The new statement. */
export interface NextStatement {
  /** The id its memory will have: retirements name it. */
  memoryId: string;
  text: string;
  speaker: string;
  authority: number;
  validFrom: Date;
  saidAt: Date;
}

/** One earlier memory as frame alignment decided on it: the record the write, the message and the history carry. */
export interface RestatementDecision {
  memoryId: string;
  /** The earlier memory's text (in the write's answer and the message record; the log's retirement keeps only its value). */
  text: string;
  /** `replace`: the new statement takes its place; `keep-both`: both stay (a set, or unsure). */
  action: 'replace' | 'keep-both';
  holds: FrameHolds;
  rule: string;
  /** The shared frame, the value's place marked "…". */
  frame: string;
  earlierValue: string;
  nextValue: string;
  /** Share of the two statements' tokens the frame covers. */
  score: number;
  /**
   * What was done: `retracted` (it ends where the new statement starts), `withdrawn` (the same
   * start: it never held), `filled-history` (the new statement is older and ends where it starts), or `kept`.
   */
  effect: 'retracted' | 'withdrawn' | 'filled-history' | 'kept';
}

export interface RestatementPlan {
  /** The frame key the new statement is written under (a set: see planRestatement), or null to keep it as prose. */
  key: { subject: string; relation: string; scope: Record<string, string>; value: string; cardinality: Cardinality } | null;
  /** Where a new statement older than what it restates stops (filled history). */
  validTo: Date | null;
  retire: { memoryId: string; validFrom: Date; reason: string }[];
  decisions: RestatementDecision[];
}

const NOTHING: RestatementPlan = { key: null, validTo: null, retire: [], decisions: [] };

export const languageOf = (text: string): FrameLanguage => (HANGUL.test(text) ? 'ko' : 'en');

const sameWords = (a: string, b: string): boolean => normalizeTerm(a) === normalizeTerm(b);

/**
 * What a new prose statement does to the earlier memories it restates: each aligned one is
 * judged (judgeFrame) and, where the frame holds one value, replaced. A frame that holds one value
 * becomes a key: the new statement is written under it (or under the earlier memory's own key),
 * so the next restatement, as-of reads and `history` find every value there. A set keeps both.
 * The key is a set (`many`) whose replaced values are retracted, not superseded: a rollback of
 * the retirements then leaves both statements true side by side.
 * Guards, whatever the frame says: a frame that says "I" or "my" is only its speaker's; the
 * assistant never replaces another speaker's statement; a lower authority never replaces a higher
 * one; a memory said at the statement's time or later is never replaced by it, and a statement
 * older than the memory only fills history before it.
 */
export function planRestatement(next: NextStatement, earlier: readonly EarlierStatement[], language: FrameLanguage = languageOf(next.text)): RestatementPlan {
  const n = frameStatement(next.text, language);
  // A condition or a maybe ("if the lead changes, the digest goes to Lars") restates nothing that holds.
  if (!n || n.predicate < 0 || isHypothetical(next.text, language)) return NOTHING;
  const personal = personalFrame(n);
  const plan: RestatementPlan = { key: null, validTo: null, retire: [], decisions: [] };
  for (const e of earlier) {
    if (sameWords(e.text, next.text) || (personal && e.speaker !== next.speaker)) continue;
    const f = frameStatement(e.text, language);
    const a = f && alignFrames(f, n);
    if (!f || !a) continue;
    const judged = judgeFrame(f, n, a, e.key !== null);
    const base = { memoryId: e.memoryId, text: e.text, holds: judged.holds, frame: a.frame, earlierValue: a.earlier.value, nextValue: a.next.value, score: a.score };
    const keep = (rule: string): void => void plan.decisions.push({ ...base, action: 'keep-both', rule, effect: 'kept' });
    if (judged.holds !== 'one') {
      keep(judged.rule);
      continue;
    }
    if (next.speaker === 'assistant' && e.speaker !== 'assistant') {
      keep(`${judged.rule}, but the assistant said it of what the ${e.speaker} said: both kept, unsure`);
      continue;
    }
    if (next.authority < e.authority) {
      keep(`${judged.rule}, but its source has less authority (${next.authority} < ${e.authority}): both kept`);
      continue;
    }
    const [from, start] = [next.validFrom.getTime(), e.validFrom.getTime()];
    // Said no earlier than this statement: never replaced by it; an older statement (a late
    // document, a chat imported out of order) still fills history before it, below.
    if (e.saidAt.getTime() >= next.saidAt.getTime() && from >= start) {
      keep(`${judged.rule}, but the memory was said no earlier than this statement: both kept`);
      continue;
    }
    plan.key ??= { ...(e.key ?? { ...frameKey(n, a), scope: {} }), value: a.next.value, cardinality: 'many' };
    const reason = `restated with another value by memory ${next.memoryId}: "${a.earlier.value}" in the frame "${a.frame}" (${judged.rule}; alignment ${a.score})`;
    if (from < start) {
      plan.validTo = plan.validTo && plan.validTo.getTime() < start ? plan.validTo : e.validFrom;
      plan.decisions.push({ ...base, action: 'replace', rule: `${judged.rule}; the statement is older, so it fills history before it`, effect: 'filled-history' });
      continue;
    }
    plan.retire.push({ memoryId: e.memoryId, validFrom: from === start ? e.validFrom : next.validFrom, reason });
    plan.decisions.push({ ...base, action: 'replace', rule: judged.rule, effect: from === start ? 'withdrawn' : 'retracted' });
  }
  return plan;
}
