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
import { en, ko, LANGUAGES, oneOf } from '../language';
import { fixOf } from './fixes';
import { generalClaim, isHypothetical, tellsAnEvent } from './mood';
import { canonicalPlace } from './relations';
import { ADDITIVE_WORDS, CHANGE_WORDS, KO_STOPWORDS, KO_TIME_WORDS, names, type StatedValue, STOPWORDS, stem, TIME_WORDS, typedValues, type ValueKind } from './statement-words';
import { type Language, splitSentences } from './triage';

export { isContentWord, stem, type StatedValue, type ValueKind } from './statement-words';

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

/**
 * The controlled vocabulary: word stems (and Korean words) that name one slot in different ways.
 * `heads` name the slot ("diet", "email"); `values` are words that are themselves a value of it
 * ("vegan", "subway"), so that two statements of one slot that differ in such a word differ in
 * value. A class is matched on a stem of the statement (Korean: on the word's start).
 */
export const SLOT_CLASSES: Readonly<Record<string, { heads: readonly string[]; values?: readonly string[] }>> = Object.fromEntries(
  Object.entries(en.slotWords).map(([name, c]) => {
    const k = ko.slotWords[name];
    const values = c.values || k?.values ? [...(c.values ?? []), ...(k?.values ?? [])] : undefined;
    return [name, { heads: [...(c.heads ?? []), ...(k?.heads ?? [])], ...(values ? { values } : {}) }];
  }),
);

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

// ---- holder and cues ----------------------------------------------------------------------------

/** Third parties whose facts are theirs, not the speaker's: "my brother lives in…", "my wife's email". */
const PERSON = `(${en.relatives.join('|')})`;
const EN_OTHER = new RegExp(String.raw`\b(?:my|our|your)\s+(?:(?:older|younger|little|big|elder|best|oldest|youngest)\s+)?${PERSON}(?:['’]s|s\b|\b)`, 'iu');
const KO_OTHER = new RegExp(`(${ko.relatives.join('|')})(?:${[...ko.particles.topic, ...ko.particles.subject, ...ko.particles.possessive, ...ko.particles.also].join('|')})?(?:\\s|$)`, 'u');

/** "Minji Kim's phone", "Sara's car": a named person's own. */
const EN_NAMED_OWNER = /\b((?:[\p{Lu}][\p{L}'-]+\s+){0,2}[\p{Lu}][\p{L}-]+)['’]s\s+(?!(?:been|got|gone|going|not)\b)[\p{Ll}]/u;

const capitalised = (w: string): string => `${w[0]!.toUpperCase()}${w.slice(1)}`;
const DAY_NAME = new RegExp(String.raw`^(?:Today|Tomorrow|Yesterday|Tonight|${[...en.weekdays, ...en.months].map(capitalised).join('|')}|Last \w+|This \w+|Next \w+)$`);

function holderOf(text: string, language: Language): string {
  if (language === 'ko') {
    const m = text.match(KO_OTHER);
    return m ? m[1]! : 'first';
  }
  const m = text.match(EN_OTHER);
  if (m) return stem(m[1]!.toLowerCase().replace(/s$/, ''));
  const named = text.match(EN_NAMED_OWNER);
  // "Tuesday's standup", "today's plan": a day's, no person's.
  const day = DAY_NAME;
  return named && !/^(?:It|That|There|What|He|She|Here|Who)$/.test(named[1]!) && !day.test(named[1]!) ? `named:${named[1]!.toLowerCase()}` : 'first';
}

const EN_NEGATION = en.changeCues.negation;
const KO_UPDATE = ko.changeCues.update;
const KO_NEGATION = ko.changeCues.negation;

function cues(text: string, language: Language): Pick<Statement, 'change' | 'additive' | 'negated'> {
  const { correction, retraction, update, additive, negation } = (LANGUAGES[language] ?? en).changeCues;
  const negated = negation.test(text);
  const fix = fixOf(text, language);
  if (fix) return { change: { kind: 'correction', cue: fix.cue }, additive: null, negated };
  const c = text.match(correction);
  const r = text.match(retraction);
  const u = text.match(update);
  const change =
    c && negated
      ? { kind: 'correction' as const, cue: c[0] }
      : r
        ? { kind: 'retraction' as const, cue: r[0] }
        : u
          ? { kind: 'update' as const, cue: u[0] }
          : c
            ? { kind: 'correction' as const, cue: c[0] }
            : null;
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
const { particles: P } = ko;
const KO_TRANSFER = new RegExp(String.raw`(?:(\S+?)(?:${oneOf(P.subject, P.topic)})\s+)?(\S+?)(?:${oneOf(P.dative)})\s+(.+?)(?:${oneOf(P.object)})\s*(?:넘겼|넘겨줬|넘겨\s*줬|인계했|맡겼)`, 'u');

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
  const relationWords = earlierMemory.relation
    ? earlierMemory.relation
        .split(/\s+/)
        .map(stem)
        .filter((w) => !STOPWORDS.has(w))
    : [];
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
    return {
      memoryId: earlierMemory.memoryId,
      action: 'keep-both',
      rule: 'contradicts an event, which stays true: both kept',
      scores: { slotOverlap: overlap, sharedClasses, valueKind: null, oldValue: null, newValue: null },
    };
  }
  // A thing passed from one holder to another ("Ines handed the on-call rotation to Marco"): it
  // changes what the earlier statement says of who holds that thing, when it names the giver.
  const passed = transferOf(next.text, next.language);
  if (passed && passed.from.some((w) => earlier.words.has(w)) && passed.thing.some((w) => earlierSlot.has(w))) {
    return {
      memoryId: earlierMemory.memoryId,
      action: 'supersede',
      rule: `passes ${passed.thing.join(' ')} from ${passed.from.join(' ')} to ${passed.to}`,
      scores: { slotOverlap: overlap, sharedClasses, valueKind: 'name', oldValue: null, newValue: passed.to },
    };
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

/**
 * The words a memory is searched by besides its own (recall's index, `key_text`): the names of
 * the slots its statement speaks of, as a question asks for them ("What's my job?" of "I now
 * teach biology"), and, in Korean, its words without their particles ("점심시간이" as
 * "점심시간"). Pure; the same vocabulary as resolution.
 */
export function searchTermsOf(text: string, language: Language): string[] {
  const st = analyzeStatement(text, language);
  const terms = new Set<string>();
  for (const c of st.classes) for (const w of (LANGUAGES[language] ?? en).slotQuestionWords[c] ?? []) terms.add(w);
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
