/**
 * Valid time, pure: when what a statement says became true. The message's time, moved back by a
 * phrase such as "last week", "사흘 전" or "in 2019"; and the time phrase cut off a value
 * ("Daejeon last week" is "Daejeon"). The words of time are the languages' (../language).
 */
import * as chrono from 'chrono-node';
import { en, ko } from '../language';
import type { Language } from './triage';

const DAY = 86_400_000;
const UNIT_DAYS: Readonly<Record<string, number>> = { ...en.unitDays, ...ko.unitDays };
const AMOUNT_WORDS: Readonly<Record<string, number>> = { ...en.numberWords, ...en.amountPhrases };
const AMOUNT = String.raw`\d+|${Object.keys(en.amountPhrases).join('|')}|an?|${en.counting.join('|')}`;
const WEEKDAYS = en.weekdays;
const WEEKDAY = WEEKDAYS.join('|');

/** Korean's own words for a number of days, and its counting words. */
const KO_DAY_COUNTS = ko.dayCounts;
const KO_COUNTS = ko.numberWords;

const amountOf = (word: string): number => AMOUNT_WORDS[word.toLowerCase().replace(/\s+/g, ' ')] ?? Number(word);
const daysBack = (days: number) => (at: Date) => new Date(at.getTime() - days * DAY);

/** Relative time phrases and where they put the valid time; the first that appears wins. */
const TIME_PHRASES: [RegExp, (m: RegExpMatchArray, at: Date) => Date][] = [
  [new RegExp(String.raw`\b(${AMOUNT})\s+(day|week|month|year)s?\s+ago\b`, 'i'), (m, at) => daysBack(amountOf(m[1]!) * UNIT_DAYS[m[2]!.toLowerCase()]!)(at)],
  [/(\d+)\s*(일|주일|주|달|개월|년)\s*전/, (m, at) => daysBack(Number(m[1]) * UNIT_DAYS[m[2]!]!)(at)],
  // Days counted in Korean's own words ("사흘 전", "이틀 전에"), and "한 달 전", "두 주 전".
  [new RegExp(`(${Object.keys(KO_DAY_COUNTS).join('|')})\\s*(?:전|전에)`, 'u'), (m, at) => daysBack(KO_DAY_COUNTS[m[1]!]!)(at)],
  [new RegExp(String.raw`(${ko.counters.join('|')})\s*(주|달|해)\s*전`, 'u'), (m, at) => daysBack(KO_COUNTS[m[1]!]! * UNIT_DAYS[m[2] === '해' ? '년' : m[2]!]!)(at)],
  [/\bthe\s+day\s+before\s+yesterday\b|그저께|그제|엊그제/i, (_, at) => daysBack(2)(at)],
  // "last Monday": the latest Monday before the message's day (a week back on a Monday).
  [new RegExp(String.raw`\blast\s+(${WEEKDAY})\b`, 'i'), (m, at) => daysBack(((at.getUTCDay() - WEEKDAYS.indexOf(m[1]!.toLowerCase()) + 6) % 7) + 1)(at)],
  [/\blast\s+(?:week|weekend)\b|(?:지난|저번)\s*주/i, (_, at) => daysBack(7)(at)],
  [/\blast\s+month\b|(?:지난|저번)\s*달/i, (_, at) => daysBack(30)(at)],
  [/\blast\s+year\b|작년|지난\s*해/i, (_, at) => daysBack(365)(at)],
  [/\b(?:yesterday|last night)\b|어제|어젯밤/i, (_, at) => daysBack(1)(at)],
  // "in 2019": from the start of that year, when it is not in the future.
  [
    /\bin\s+((?:19|20)\d{2})\b|((?:19|20)\d{2})년에/i,
    (m, at) => {
      const year = Number(m[1] ?? m[2]);
      return year <= at.getUTCFullYear() ? new Date(Date.UTC(year, 0, 1)) : at;
    },
  ],
  [/\b(?<!earlier\s)(?:today|this\s+(?:week|morning|afternoon|evening|month|year)|tonight|just now)\b|오늘|이번\s*주|이번\s*달|올해/i, (_, at) => at],
];

const TIMELY = /\d|\b(?:ago|yesterday|today|tonight|week|weekend|month|year|morning|afternoon|evening|night|last|this|earlier|since)\b/i;
const TIME_PREPOSITIONS: ReadonlySet<string> = new Set(en.timePrepositions);

/**
 * The valid time a phrase in the text gives, and the phrase; null when it has none. The phrases
 * above first (Korean's, and English's most common, each tested); then, in English, whatever
 * `chrono-node` reads as a day relative to the message ("over the weekend", "on Friday", "earlier
 * this month"): a maintained parser of English time phrases, rather than a longer list here. A
 * day it reads in the future is a plan, not a start: none.
 */
export function timeOf(text: string, at: Date, language: Language = 'en'): { time: Date; phrase: string } | null {
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
export const TIME_WORDS = new RegExp(
  String.raw`\s*(?:,\s*)?\b(?:(?:${AMOUNT})\s+(?:day|week|month|year)s?\s+ago|the day before yesterday|last\s+(?:week|weekend|month|year|night|${WEEKDAY})|yesterday|today|tonight|recently|lately|these days|nowadays|at the moment|at present|(?:earlier\s+)?this\s+(?:week|weekend|morning|afternoon|evening|month|year)|just now|right now|for now|now|at last|finally|anymore|any more|in\s+(?:19|20)\d{2})\b.*$`,
  'i',
);
