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

/** Where a clause may start after a comma, semicolon or dash: words that open a clause of its own. */
const CLAUSE_OPENERS =
  /^(?:and|but|so|or|because|since|although|though|while|whereas|yet|then|plus|also|now|however|considering|especially|including|after|before|when|as|given|if|unless|until|meaning|i|i'm|i've|i'd|we|we're|we've|my|our|it|it's|this|that's|there|they)\b/iu;

/** What asks rather than states: a question mark, or a request opening the clause. */
const ASKS = /\?\s*$|^(?:so\s+|and\s+|but\s+)?(?:can|could|would|will)\s+you\b|^(?:please|help me|let me know|tell me|show me|explain)\b/iu;

/** Fenced code blocks and inline code, replaced by spaces of the same length (offsets stay true). */
function blankCode(text: string): string {
  return text.replace(/```[\s\S]*?(?:```|$)|`[^`\n]*`/gu, (m) => ' '.repeat(m.length));
}

function sentences(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
  for (const s of segmenter.segment(text)) out.push({ start: s.index, end: s.index + s.segment.length });
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
 * The statement parts of a text, left to right. A text of one short sentence is one part; code
 * and questions are left out; a part longer than `MAX_PART_WORDS` after cutting at clauses is
 * kept to its first `MAX_PART_WORDS` words' span only if nothing better can be had (it is cut at
 * its commas as a last resort).
 */
export function turnParts(text: string): TurnPart[] {
  const plain = blankCode(text);
  const out: TurnPart[] = [];
  for (const s of sentences(plain)) {
    const span = trimmed(plain, s.start, s.end);
    if (!span) continue;
    const pieces = wordCount(plain.slice(span.start, span.end)) > MAX_PART_WORDS ? clauses(plain, span.start, span.end) : [span];
    for (const p of pieces.flatMap((p) => (wordCount(plain.slice(p.start, p.end)) > MAX_PART_WORDS ? commaCut(plain, p.start, p.end) : [p]))) {
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
