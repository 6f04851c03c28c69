/**
 * The statements inside a turn (R22 for long texts), pure. A chat turn or a note mixes greetings,
 * requests, code and several statements; what changes later is one of those statements, not the
 * whole turn. So a long text is cut into parts, each a sentence or, in a long run-on sentence, a
 * clause, with where it stands in the text (offsets into the text as written: the turn's words
 * stay on record, a part is only a span of them).
 *
 * - Sentences are cut by `Intl.Segmenter` (Unicode sentence boundaries, any script).
 * - Code is not a statement: fenced blocks (```…```) and inline code (`…`) are left out.
 * - A sentence of more than `MAX_PART_WORDS` words is cut into clauses where a comma, semicolon
 *   or dash is followed by a word that opens a new clause ("and", "but", "so", "because", …). A
 *   relative clause ("…, which has now reached 165") stays with what it is about.
 * - A question or a request ("can you help me…?") states nothing: it is no part.
 */
import { analyzeStatement, isContentWord, type Statement, type StatedValue, stem, type ValueKind } from './resolution';
import { en } from '../language';
import type { Language } from './triage';

export interface TurnPart {
  /** Offsets into the text as written: `text.slice(start, end)` is the part. */
  start: number;
  end: number;
  text: string;
}

/** At most this many words in a part: what resolution compares (`statementSized`). */
export const MAX_PART_WORDS = 40;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const wordCount = (s: string): number => s.match(WORD)?.length ?? 0;

/** Where a clause may start after a comma, semicolon or dash (the cues of a turn's parts are the language's: `en.turnCues`). */
const CLAUSE_OPENERS = en.turnCues.clauseOpeners;

/** What asks rather than states: a question mark, or a request opening the clause. */
const REQUEST = String.raw`(?:(?:so\s+|and\s+|but\s+)?(?:can|could|would|will)\s+you\b|(?:please|help me|let me know|tell me|show me)\b)`;
const ASKS = new RegExp(String.raw`\?\s*$|^(?:${REQUEST}|explain\b)`, 'iu');

/**
 * A request or a question that follows a statement in the same sentence ("…after completing 8
 * problems - can you help me…?", "…has dropped to 240 GB, so which flags should I use?").
 */
const REQUEST_AFTER = new RegExp(String.raw`(?:[,;]\s+|\s+[-—–]\s+)(?=${REQUEST}|(?:so\s+)?(?:what|how|which|where|when|why|who|should|shall|do|does|did|is|are|any)\b[^,;.]*\?\s*$)`, 'iu');

/** Fenced code blocks and inline code, replaced by spaces of the same length (offsets stay true). */
function blankCode(text: string): string {
  return text.replace(/```[\s\S]*?(?:```|$)|`[^`\n]*`/gu, (m) => ' '.repeat(m.length));
}

/** Made once: a segmenter is costly to build, and every prose write cuts its text. */
const SENTENCES = new Intl.Segmenter(undefined, { granularity: 'sentence' });

function sentences(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const s of SENTENCES.segment(text)) out.push({ start: s.index, end: s.index + s.segment.length });
  return out;
}

/** A span made to start and end on its first and last non-space character (and no closing punctuation of the sentence). */
function trimmed(text: string, start: number, end: number): { start: number; end: number } | null {
  while (start < end && /[\s,;:—–-]/u.test(text[start]!)) start++;
  while (end > start && /\s/u.test(text[end - 1]!)) end--;
  return end > start ? { start, end } : null;
}

/** A long sentence's clauses: cut where a separator is followed by a clause opener. */
function clauses(text: string, start: number, end: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const sep = /[,;]\s+|\s+[-—–]\s+/gu;
  sep.lastIndex = start;
  let from = start;
  const body = text.slice(0, end);
  for (let m = sep.exec(body); m && m.index < end; m = sep.exec(body)) {
    const after = m.index + m[0].length;
    if (!CLAUSE_OPENERS.test(text.slice(after, Math.min(end, after + 20)))) continue;
    if (wordCount(text.slice(from, m.index)) >= 3) {
      out.push({ start: from, end: m.index });
      from = after;
    }
  }
  out.push({ start: from, end });
  return out;
}

/**
 * The statement parts of a text, left to right. A text of one short sentence is one part; code,
 * questions and pieces of fewer than four words are left out; a clause still longer than
 * `MAX_PART_WORDS` is cut at its commas, and a piece still longer than that is no part.
 */
export function turnParts(text: string): TurnPart[] {
  const plain = blankCode(text);
  const out: TurnPart[] = [];
  for (const s of sentences(plain)) {
    const span = trimmed(plain, s.start, s.end);
    if (!span) continue;
    const pieces = wordCount(plain.slice(span.start, span.end)) > MAX_PART_WORDS ? clauses(plain, span.start, span.end) : [span];
    for (const p of pieces.flatMap((p) => (wordCount(plain.slice(p.start, p.end)) > MAX_PART_WORDS ? commaCut(plain, p.start, p.end) : [p]))) {
      // A piece that states something and then asks: the statement is a part, the request is not.
      const request = REQUEST_AFTER.exec(plain.slice(p.start, p.end));
      if (request && wordCount(plain.slice(p.start, p.start + request.index)) >= 4) p.end = p.start + request.index;
      const t = trimmed(plain, p.start, p.end);
      if (!t) continue;
      const part = text.slice(t.start, t.end);
      if (wordCount(part) < 4 || wordCount(part) > MAX_PART_WORDS || ASKS.test(part)) continue;
      out.push({ start: t.start, end: t.end, text: part });
    }
  }
  return out;
}

/** A last resort for a clause that is still too long: cut at every comma. */
function commaCut(text: string, start: number, end: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let from = start;
  for (const m of text.slice(start, end).matchAll(/,\s+/gu)) {
    const at = start + m.index!;
    out.push({ start: from, end: at });
    from = at + m[0].length;
  }
  out.push({ start: from, end });
  return out;
}

// ---- a part that a later part changes -----------------------------------------------------------

/** A value said to be the current one or a changed one ("now", "has grown to"); a count said as a total that holds now. */
const STATE_CUE = en.turnCues.state;
const COUNT_CUE = en.turnCues.count;

/** Right before the value a change started from ("from 520ms to 290ms"). */
const FROM_BEFORE = /\bfrom\s+$/iu;

/** A value named as a goal, a limit or a wish is not what holds ("targeting under 200ms"). */
const GOAL_BEFORE = en.turnCues.goalBefore;

/** Verbs of effort and talk that any two requests share: no topic in common. */
const DISCOURSE: ReadonlySet<string> = new Set(en.discourseStems);

/** Units a value is counted in: the word before the next one is the value's, not a qualifier. */
const UNIT_WORDS = en.turnCues.unit;

/** Words of the topic two parts must share besides the value's unit. */
const MIN_SHARED = 2;
/** The share of the shorter topic two parts must have in common. */
const MIN_SHARE = 0.5;

/** Shapes that a part's value can change within: numbers with their unit, counts, dates, times, versions. */
const CHANGEABLE = new Set<ValueKind>(['quantity', 'count', 'ordinal', 'time', 'date', 'version']);

export interface PartChange {
  /** The earlier memory whose part is changed. */
  memoryId: string;
  /** The earlier memory's part (a span of its text). */
  part: TurnPart;
  /** The new text's part that changes it. */
  by: TurnPart;
  kind: ValueKind;
  oldValue: string;
  newValue: string;
  /** Words of the topic both parts share (stems). */
  shared: string[];
  cue: string;
  rule: string;
}

/**
 * The parts of a text that may change earlier ones: those that say a value of a changeable shape
 * holds now. Their `topic` (stems) is what an earlier part must share; a text with none changes
 * no part, and nothing need be looked up for it.
 */
export function changingParts(text: string, language: Language): AnalysedPart[] {
  // A part is a span of the text between word boundaries: no cue in the text, none in any part.
  if (agentTurn(text) || !STATE_CUE.test(text)) return [];
  return turnParts(text)
    .map((p) => analysePart(p, language))
    .filter((p) => (p.held.length > 0 || p.bare.length > 0) && STATE_CUE.test(p.text) && p.topic.size >= MIN_SHARED);
}

export interface AnalysedPart extends TurnPart {
  statement: Statement;
  /** The values this part states as holding: changeable shapes, not goals or limits. */
  held: StatedValue[];
  /** Numbers it states as holding without a unit. */
  bare: StatedValue[];
  topic: Set<string>;
}

function analysePart(part: TurnPart, language: Language): AnalysedPart {
  // A speaker's label opening a transcript line ("user: …", "Caroline: …") is no word of the topic.
  const label = part.text.match(/^[\p{L}][\p{L}\p{N}._'-]*(?:\s+[\p{Lu}][\p{L}\p{N}._'-]*){0,2}:\s+/u)?.[0] ?? '';
  const statement = analyzeStatement(part.text.slice(label.length), language);
  const holds = (v: StatedValue): boolean => {
    const at = part.text.indexOf(v.text);
    const before = part.text.slice(Math.max(0, at - 60), at);
    // "from 520ms to 290ms": the value it came from is not what holds; "by February 1": a deadline set, not a fact;
    // "improved to 85% after completing 8 problems": a value in a clause of time is the background, not what changed.
    return at < 0 || !(GOAL_BEFORE.test(before) || FROM_BEFORE.test(before) || (v.kind === 'date' && /\bby\s+$/iu.test(before)) || /\b(?:after|before|once|when|while)\b[^.;,]{0,30}$/iu.test(before));
  };
  const held = statement.values.filter((v) => CHANGEABLE.has(v.kind) && !(v.kind === 'quantity' && !v.unit) && holds(v));
  // A number without a unit ("has now reached 165"): it counts what an earlier count of a word of this part counted.
  const bare = statement.values.filter((v) => v.kind === 'quantity' && !v.unit && /^\d[\d,.]*$/u.test(v.norm) && holds(v));
  const topic = new Set([...statement.slot].filter((w) => !DISCOURSE.has(w) && w.length > 2));
  return { ...part, statement, held, bare, topic };
}

const sameShape = (a: StatedValue, b: StatedValue): boolean => a.kind === b.kind && (a.unit ?? '') === (b.unit ?? '');

/**
 * A transcript turn of the agent's own ("assistant: …", "AI: …"): its parts neither change nor
 * are changed. An answer restates the user's values in its own sentences ("your score of 80%"),
 * and is full of worked examples, schedules and sums; a value that changes is the user's (or a
 * document's, a tool's), said on their own turns. An agent's own actions are better kept as facts.
 */
export function agentTurn(text: string, speaker?: string): boolean {
  return speaker === 'assistant' || /^\s*(?:assistant|ai|bot|agent|model)\s*:/iu.test(text);
}

/** The value a part says its value changed from ("improved from 60% to 85%": 60%), of the same shape. */
function changedFrom(part: AnalysedPart, to: StatedValue): StatedValue | undefined {
  return part.statement.values.find((v) => {
    if (!sameShape(v, to) || v.norm === to.norm) return false;
    const at = part.text.indexOf(v.text);
    return at >= 0 && FROM_BEFORE.test(part.text.slice(Math.max(0, at - 12), at));
  });
}

/**
 * The parts of earlier texts that a new text's `changing` parts (`changingParts`) change: a part
 * that says a value holds now (a state or change word: "now", "has grown to", "the new …")
 * replaces a part of an earlier text that gives another value of the same shape (a number with the
 * same unit, a count of the same thing, a date, a time, a version) about the same topic (two words
 * of the topic in common, and half of the shorter topic). Not a change: a value named as a goal or
 * a limit ("targeting under 200ms"), or as where it came from ("from 520ms"); the same value said
 * again beside it; another holder ("my brother…"); another thing named on each side (a name or
 * identifier that one part has and the other lacks, both ways: "auth.py" / "main.py"); a shared
 * word qualified otherwise on each side ("the staging cluster" / "the production cluster"). Pure;
 * English rules, other languages by the same shapes.
 */
export function changedParts(changing: readonly AnalysedPart[], earlier: readonly { memoryId: string; text: string }[], language: Language): PartChange[] {
  if (changing.length === 0) return [];
  return changesAmong(
    changing,
    earlier.filter((m) => !agentTurn(m.text)).map((m) => ({ memoryId: m.memoryId, parts: statedParts(m.text, language) })),
  );
}

/** A text's parts that state a value as holding (of a changeable shape, or a bare number); `worth`: which parts to analyse at all. */
function statedParts(text: string, language: Language, worth: (part: TurnPart) => boolean = () => true): AnalysedPart[] {
  return turnParts(text)
    .filter(worth)
    .map((p) => analysePart(p, language))
    .filter((p) => p.held.length > 0 || p.bare.length > 0);
}

/** `changedParts` over parts analysed once; `anchor`: the words two parts must share two of instead of half the shorter topic (a question's). */
function changesAmong(changing: readonly AnalysedPart[], earlier: readonly { memoryId: string; parts: readonly AnalysedPart[] }[], anchor?: ReadonlySet<string>): PartChange[] {
  const out: PartChange[] = [];
  for (const memory of earlier) {
    for (const theirs of memory.parts) {
      if (theirs.held.length === 0) continue;
      for (const by of changing) {
        const change = compareParts(theirs, by, anchor);
        if (change) out.push({ memoryId: memory.memoryId, part: { start: theirs.start, end: theirs.end, text: theirs.text }, by: { start: by.start, end: by.end, text: by.text }, ...change });
      }
    }
  }
  return out;
}

/**
 * The content words written right before each shared word, by its stem; a word that stands
 * somewhere without one ("100% test coverage") is left out: it is not always qualified.
 */
function qualifiers(text: string, shared: ReadonlySet<string>): Map<string, Set<string>> {
  const words = (text.match(WORD) ?? []).map((w) => w.toLowerCase());
  const out = new Map<string, Set<string>>();
  const bare = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const s = stem(words[i]!);
    // A verb's form ("including", "extended") is not a thing that a word before it qualifies.
    if (!shared.has(s) || /(?:ing|ed)$/u.test(words[i]!)) continue;
    const before = i > 0 ? words[i - 1]! : '';
    // "the new sprint deadline": a word that says the value changed qualifies nothing.
    if (!before || !isContentWord(before) || shared.has(stem(before)) || UNIT_WORDS.test(before) || STATE_CUE.test(before)) bare.add(s);
    else out.set(s, (out.get(s) ?? new Set()).add(stem(before)));
  }
  for (const s of bare) out.delete(s);
  return out;
}

/**
 * Whether a shared word is told of another thing on each side: what `describe` finds beside it
 * ("the staging cluster" / "the production cluster"; "coverage for my API integration" / "coverage
 * on my core modules") has no word in common, nor a word both parts share.
 */
function saidOfOtherThings(a: string, b: string, shared: readonly string[], describe: (text: string, shared: ReadonlySet<string>) => Map<string, Set<string>>): boolean {
  const set = new Set(shared);
  const [da, db] = [describe(a, set), describe(b, set)];
  for (const [w, x] of da) {
    const y = db.get(w);
    if (y && ![...x].some((d) => y.has(d) || set.has(d))) return true;
  }
  return false;
}

/** Determiners and possessives between a preposition and its object. */
const DETERMINER = /^(?:the|a|an|my|our|your|his|her|their|its|this|that|these|those)$/u;

/**
 * What each shared word is said of ("coverage for my API integration": api, integr), by its stem:
 * the first two content words after an "on/for/of/in" that follows it.
 */
function objects(text: string, shared: ReadonlySet<string>): Map<string, Set<string>> {
  const words = (text.match(WORD) ?? []).map((w) => w.toLowerCase());
  const out = new Map<string, Set<string>>();
  for (let i = 0; i + 2 < words.length; i++) {
    const s = stem(words[i]!);
    if (!shared.has(s) || !/^(?:on|for|of|in)$/u.test(words[i + 1]!)) continue;
    let j = i + 2;
    while (j < words.length && DETERMINER.test(words[j]!)) j++;
    const object = words
      .slice(j, j + 2)
      .filter((w) => isContentWord(w) && !UNIT_WORDS.test(w) && !/^\d/u.test(w))
      .map(stem);
    if (object.length) out.set(s, new Set([...(out.get(s) ?? []), ...object]));
  }
  return out;
}

function compareParts(old: AnalysedPart, next: AnalysedPart, anchor?: ReadonlySet<string>): Omit<PartChange, 'memoryId' | 'part' | 'by'> | null {
  if (old.statement.holder !== next.statement.holder) return null;
  // The same value of a shape said on both sides: the part is about that, and what differs is something else.
  if (next.held.some((n) => old.held.some((o) => sameShape(o, n) && o.norm === n.norm))) return null;
  // A change that names where it started ("from 60% to 85%") changes only a statement of that value.
  const pair =
    next.held.flatMap((n) => old.held.filter((o) => sameShape(o, n) && (changedFrom(next, n)?.norm ?? o.norm) === o.norm).map((o) => ({ n, o })))[0] ??
    // "…commits merged into the main branch, which has now reached 165" after "…150 commits": a count of what this part names.
    next.bare.flatMap((n) =>
      old.held.filter((o) => o.kind === 'count' && o.unit && next.statement.words.has(stem(o.unit)) && o.norm.split(/\s/u)[0] !== n.norm).map((o) => ({ n: { ...n, kind: o.kind, unit: o.unit }, o })),
    )[0];
  if (!pair) return null;
  // A count adopted by a bare number: what it counts is a word of the topic both parts share.
  const counted = pair.n.kind === 'count' && !next.held.includes(pair.n) && pair.o.unit ? [stem(pair.o.unit)] : [];
  const shared = [...new Set([...[...next.topic].filter((w) => old.topic.has(w)), ...counted])];
  if (pair.n.kind === 'count' && !COUNT_CUE.test(next.text)) return null;
  // Two words in common, and at least half of the shorter topic: a long turn shares two words with many
  // (for a question: two of its words in common, whatever else each part says).
  if (anchor ? shared.filter((w) => anchor.has(w)).length < MIN_SHARED : shared.length < MIN_SHARED || shared.length < MIN_SHARE * Math.min(next.topic.size, old.topic.size)) return null;
  // Another thing named on each side: two things, each with its value.
  const named = (a: AnalysedPart, b: AnalysedPart) =>
    a.statement.values.filter((v) => (v.kind === 'name' || v.kind === 'identifier' || v.kind === 'path') && !b.statement.values.some((w) => w.norm === v.norm) && !b.statement.words.has(stem(v.norm)))
      .length;
  if (named(old, next) > 0 && named(next, old) > 0) return null;
  // Another qualifier or object of a word both share (of the question's words, when one asks): two things.
  const told = anchor ? shared.filter((w) => anchor.has(w)) : shared;
  if (saidOfOtherThings(old.text, next.text, told, qualifiers) || saidOfOtherThings(old.text, next.text, told, objects)) return null;
  const cue = next.text.match(STATE_CUE)![0];
  return {
    kind: pair.n.kind,
    oldValue: pair.o.text,
    newValue: pair.n.text,
    shared,
    cue,
    rule: `the same ${pair.n.kind}${pair.n.unit ? ` in ${pair.n.unit}` : ''} of one topic (${shared.join(', ')}), said to hold now ("${cue}")`,
  };
}

// ---- a question's own view: the value it asks for, said again later ------------------------------

/** A question about how a value went rather than what it is ("how many days between …"): the earlier values are its answer. */
const ASKS_HOW_IT_WENT = en.turnCues.howItWent;

/** A turn as a question's changes compare it: what it says, who said it, from when it holds. */
export interface TurnSaid {
  memoryId: string;
  text: string;
  speaker: string;
  validFrom: Date;
}

/**
 * The statements among a few turns that a newer turn of the same speaker says again with another
 * value, for one question. At write time no question narrows the topic, so a new part must share
 * half of the shorter part's topic (`changedParts`): two long turns share a few words with many. A
 * question names what it is about: two parts that share two of its words and give values of one
 * shape, the newer said to hold now, are the value it asks for changed. The other tests hold: the
 * holder, things named on one side only, a word of the question qualified otherwise on each side,
 * goals and "from" values, a count only on a word of totals. None for a question about how a value
 * went. Pure.
 */
export function changedForQuestion(question: string, turns: readonly TurnSaid[], language: Language): (PartChange & { byMemoryId: string })[] {
  if (turns.length < 2 || ASKS_HOW_IT_WENT.test(question)) return [];
  const asked = new Set([...analyzeStatement(question, language).words].filter((w) => w.length > 2 && !DISCOURSE.has(w)));
  if (asked.size < MIN_SHARED) return [];
  // Each turn's parts analysed once; a part that names fewer than two of the question's words answers
  // it with nothing (counted on its words first: analysing a part costs far more than stemming it).
  const count = (words: Iterable<string>): number => [...new Set(words)].filter((w) => asked.has(w)).length;
  const worth = (p: TurnPart): boolean => count((p.text.match(WORD) ?? []).map((w) => stem(w.toLowerCase()))) >= MIN_SHARED;
  const said = turns.filter((t) => !agentTurn(t.text, t.speaker)).sort((a, b) => +a.validFrom - +b.validFrom);
  // Only a part said to hold now changes one, as at write time (a value merely said later may be of
  // another occasion): nothing to analyse before the last turn that says so, nor without one.
  let last = said.length - 1;
  while (last >= 0 && !STATE_CUE.test(said[last]!.text)) last--;
  if (last < 1) return [];
  const analysed = new Map<number, AnalysedPart[]>();
  const partsOf = (i: number): AnalysedPart[] => {
    let parts = analysed.get(i);
    if (!parts) analysed.set(i, (parts = statedParts(said[i]!.text, language, worth).filter((p) => count(p.topic) >= MIN_SHARED)));
    return parts;
  };
  const out: (PartChange & { byMemoryId: string })[] = [];
  for (let i = 1; i <= last; i++) {
    const next = said[i]!;
    if (!STATE_CUE.test(next.text)) continue;
    const changing = partsOf(i).filter((p) => STATE_CUE.test(p.text));
    if (changing.length === 0) continue;
    const earlier = said
      .slice(0, i)
      .map((t, j) => ({ ...t, parts: t.speaker === next.speaker && +t.validFrom < +next.validFrom ? partsOf(j) : [] }))
      .filter((t) => t.parts.length > 0);
    for (const c of changesAmong(changing, earlier, asked)) out.push({ ...c, byMemoryId: next.memoryId, rule: `${c.rule}, as the question asks it` });
  }
  return out;
}
