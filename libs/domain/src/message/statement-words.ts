/**
 * The words and values of a statement as resolution reads them, pure: which words say what it is
 * about (content words, stems), and the values it gives, typed where they have a shape (email,
 * phone, path, version, identifier, quantity with its unit, ordinal, count, time, date, name).
 * The word lists are the languages' (libs/domain/src/language); this file holds the rules.
 */
import { en, endingPattern, ko } from '../language';

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

// ---- words --------------------------------------------------------------------------------------

/** English words that carry no slot: the stopwords, function words and a statement's fillers. */
export const STOPWORDS: ReadonlySet<string> = new Set([...en.stopwords, ...en.functionWords, ...en.statementFillerWords]);
/** Korean words that carry no slot: pronouns, fillers, the endings of saying. */
export const KO_STOPWORDS: ReadonlySet<string> = new Set(ko.stopwords);
/** Korean words of time ("어제", "지난주", "이번 달"): no slot. */
export const KO_TIME_WORDS = new RegExp(`^(?:${ko.timePlacers.join('|')})(?:${ko.timeUnits.join('|')})?$|^(?:${ko.timeWords.join('|')})$`, 'u');
/** Words that say a change, not what changed. */
export const CHANGE_WORDS: ReadonlySet<string> = new Set(en.changeWords);
/** Words of time that date a statement without being about its slot. */
export const TIME_WORDS: ReadonlySet<string> = new Set(en.timeWords);
/** The additive words themselves are no part of a slot. */
export const ADDITIVE_WORDS: ReadonlySet<string> = new Set(en.additiveWords);
/** Korean particles and endings that stay on a word ("집은", "광주로", "바뀌었어"). */
const { particles: P, copula: C } = ko;
const KO_ENDINGS = endingPattern([
  ...P.direction,
  ...P.placeOfAction,
  ...P.place,
  ...P.dative,
  ...P.until,
  ...P.from,
  ...C.present,
  ...C.pastPlain,
  ...P.topic,
  ...P.subject,
  ...P.object,
  ...P.also,
  ...P.possessive,
  ...C.short,
  ko.politeEnding,
]);

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

// ---- values -------------------------------------------------------------------------------------

export const NUMBER_WORDS: Readonly<Record<string, number>> = { ...en.numberWords, ...ko.numberWords };
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

export interface Found {
  value: StatedValue;
  start: number;
  end: number;
}

/** Each value pattern once as a global expression (compiling them for every statement was most of its time). */
const GLOBAL = new Map<string, RegExp>();
export function globalOf(re: RegExp): RegExp {
  const key = `${re.source}/${re.flags}`;
  let g = GLOBAL.get(key);
  if (!g) GLOBAL.set(key, (g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`)));
  g.lastIndex = 0;
  return g;
}

/** Counts: "one kid", "two kids", "3 cats". */
const COUNT = new RegExp(String.raw`\b(\d+|zero|${en.counting.join('|')})\s+(kids?|child(?:ren)?|sons?|daughters?|cats?|dogs?|pets?|cars?|siblings?|brothers?|sisters?|[a-z]{3,}s)\b`, 'iu');

/** The typed values of a text, left to right, with where they stand. */
export function typedValues(text: string): Found[] {
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
    (m) => ({
      kind: 'date',
      text: m[0],
      norm: m[0]
        .toLowerCase()
        .replace(/(\d)(?:st|nd|rd|th)/u, '$1')
        .replace(/[.,]/gu, '')
        .replace(/\s+/gu, ' '),
    }),
  );
  // Ordinals with what they count: "5th floor", "4th grade".
  add(/\b(\d+)(?:st|nd|rd|th)\s+([A-Za-z]+)/u, (m) => ({ kind: 'ordinal', text: m[0], norm: m[1]!, unit: stem(m[2]!) }));
  add(/(\d+)\s*(층|학년)/u, (m) => ({ kind: 'ordinal', text: m[0], norm: m[1]!, unit: m[2]! }));
  // Quantities: "300 seconds", "60s", "2 GB", "10%".
  // (The end is not a word boundary: none follows "%".)
  add(
    /\b(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?|kb|mb|gb|tb|%|percent|km|kilomet(?:er|re)s?|mi|miles?|kg|kilograms?|kilos?|lbs?|pounds?|cm|mm|px)(?![\p{L}\p{N}_])/iu,
    (m) => ({
      kind: 'quantity',
      text: m[0],
      norm: m[1]!,
      unit: unitOf(m[2]!),
    }),
  );
  add(/(\d+(?:\.\d+)?)\s*(초|분|시간|일)(?![\p{L}])/u, (m) => ({ kind: 'quantity', text: m[0], norm: m[1]!, unit: unitOf(m[2]!) }));
  // Counts: "one kid", "two kids", "3 cats".
  add(COUNT, (m) => ({
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
  const hour = t.match(/(오전|오후)?(\d{1,2})시(?:(\d{1,2})분|(반))?/u);
  if (hour) {
    const h = Number(hour[2]) + (hour[1] === '오후' && Number(hour[2]) < 12 ? 12 : 0);
    return `${String(h).padStart(2, '0')}:${hour[4] ? '30' : String(Number(hour[3] ?? 0)).padStart(2, '0')}`;
  }
  const clock = t.match(/(\d{1,2})(?::(\d{2}))?(am|pm)?/);
  if (!clock) return t;
  let h = Number(clock[1]);
  if (clock[3] === 'pm' && h < 12) h += 12;
  if (clock[3] === 'am' && h === 12) h = 0;
  return `${String(h).padStart(2, '0')}:${clock[2] ?? '00'}`;
}

/** Capitalised words not at a sentence's start (or there, when no common word): names, places, products. */
export function names(text: string, skip: (s: number, e: number) => boolean): Found[] {
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
