/**
 * Admission gates (R7): what of a message's candidates may enter the ledger, and as which type.
 * The policy is data (a file with defaults, overridable per tenant); this module only applies
 * it. Every gate's finding, passed or failed, is kept with the decision, so "why was this
 * stored as a milestone?" and "why was that dropped?" both have an answer in the log.
 */
import { en } from '../language';
import type { Candidate } from './extraction';
import { containsAny } from './extraction';
import type { Language } from './triage';

export interface TypePolicy {
  /** High-importance types are the ones a message may carry at most `maxHighImportanceLabels` of. */
  importance: 'high' | 'normal';
  /** Words that make the extractor propose this type for a prose statement (broad on purpose). */
  cues: string[];
  /** Gate: at least one of these must appear ([] = no keyword gate). */
  requiredKeywords: string[];
  /** Gate: the message must be at least `minSimilarity` (cosine) to one of these. */
  examples: string[];
  minSimilarity: number | null;
  /** What a candidate that fails this type's gates becomes: the default type, or nothing. */
  onFail: 'retype' | 'reject';
}

export interface AdmissionPolicy {
  /** The type of a memory no label fits (and what a failed label is retyped to). */
  defaultType: string;
  roleplayGuard: boolean;
  chitchat: { enabled: boolean; phrases: string[]; maxWords: number };
  /** Prose needs at least this many content words. */
  minContentWords: number;
  maxHighImportanceLabels: number;
  types: Record<string, TypePolicy>;
}

export interface GateFinding {
  gate: string;
  passed: boolean;
  detail: string;
}

export interface AdmissionDecision {
  verdict: 'admitted' | 'rejected' | 'retyped';
  candidate: Omit<Candidate, 'labels'>;
  /** The type the extraction proposed first (the default type when it proposed none). */
  proposedType: string;
  /** The type it is stored as; null when rejected. */
  type: string | null;
  gates: GateFinding[];
  reason: string;
}

/**
 * Cosine similarity of the message to a type's examples (the best one), or null when it could
 * not be measured (the embedding model does not cover the message's language).
 */
export type SimilarityOf = (type: string) => number | null;

const STAGE = /\*[^*]*\*/g;
/** A third person doing something, as a story tells it: "She smiles…", "Minji laughed…" (not "It looks like…"). */
const NARRATOR = String.raw`(?:she|he|they|(?!(?:It|This|That|These|Those|There|The|Everything|Everyone|Everybody|Nothing|Something|Someone|Nobody|What|Which|Who)\b)[A-Z][a-z]+)`;
const NARRATION = new RegExp(String.raw`^${NARRATOR}\s+(?:\w+ly\s+)?(?:${en.narrationVerbs.join('|')})\b`);
const PERSONAL = /\b(?:i|i'm|i've|my|me|we|our|you|your)\b|나|내|저|제/i;
/** Words a chat message's content leaves out: the stopwords, and small talk's fillers ("lol", "thanks"). */
const STOPWORDS: ReadonlySet<string> = new Set([...en.stopwords, ...en.chatFillerWords]);

/** Words that carry content; a word's trailing dot or quote is punctuation ("is." is "is"). */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}@._'-]*/gu) ?? []).map((w) => w.replace(/[._'-]+$/, '')).filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w)));
}

function roleplayGuard(c: Candidate): GateFinding {
  const spoken = c.text.replace(STAGE, ' ').replace(/\s+/g, ' ').trim();
  const hadStage = spoken.length < c.text.trim().length;
  if (hadStage && contentWords(spoken).length === 0) return { gate: 'role-play guard', passed: false, detail: 'only stage directions (text in asterisks)' };
  if (c.memoryKind === 'prose' && NARRATION.test(spoken) && !PERSONAL.test(spoken)) {
    return { gate: 'role-play guard', passed: false, detail: 'third-person narration, not something the speaker told' };
  }
  return { gate: 'role-play guard', passed: true, detail: hadStage ? 'stage directions ignored; the rest is a statement' : 'no stage directions or narration' };
}

/** What may follow a Korean small-talk word: "고마워요", "ㅋㅋㅋ", "응!". */
const KO_SMALL_TALK_TAIL = /^(?:요|용|염|여)?[ㅋㅎㅠㅜ~!]*$/;
const HANGUL = /[\u3131-\u318e\uac00-\ud7a3]/;

function sameWord(word: string, phrase: string): boolean {
  if (word === phrase) return true;
  return HANGUL.test(phrase) && word.startsWith(phrase) && KO_SMALL_TALK_TAIL.test(word.slice(phrase.length));
}

/**
 * The small-talk phrase among the first three words, matched word for word: "k" is not the K of
 * "K-pop", "좋아" is not the start of "좋아해", "응" not of "응급실".
 */
function smallTalkPhrase(spoken: string, phrases: string[]): string | null {
  const words = spoken
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3);
  for (const phrase of phrases) {
    const parts = phrase.toLowerCase().split(/\s+/);
    for (let i = 0; i + parts.length <= words.length; i++) {
      if (parts.every((p, j) => sameWord(words[i + j]!, p))) return phrase;
    }
  }
  return null;
}

function chitchatFilter(c: Candidate, policy: AdmissionPolicy, language: Language): GateFinding {
  const spoken = c.text.replace(STAGE, ' ').trim();
  const words = spoken.split(/\s+/).filter(Boolean);
  const phrase = smallTalkPhrase(spoken, policy.chitchat.phrases);
  const content = contentWords(spoken).length;
  const small = phrase !== null && words.length <= policy.chitchat.maxWords;
  if (!small && content >= policy.minContentWords) return { gate: 'chit-chat filter', passed: true, detail: `${content} content words` };
  // "Nice, I got promoted!", "I love you": short, but the news a proposed label asks for is no small talk.
  const label = c.labels.find((l) => (policy.types[l]?.requiredKeywords.length ?? 0) > 0 && containsAny(spoken, policy.types[l]!.requiredKeywords, language));
  if (label) return { gate: 'chit-chat filter', passed: true, detail: `short, but carries what a ${label} needs` };
  if (small) return { gate: 'chit-chat filter', passed: false, detail: `small talk ("${phrase}", ${words.length} words)` };
  return { gate: 'chit-chat filter', passed: false, detail: `${content} content word(s); at least ${policy.minContentWords} needed` };
}

/** The gates of one type, in order: keywords first, similarity only for what has a keyword. */
function typeGates(type: string, tp: TypePolicy, text: string, language: Language, similarity: SimilarityOf): GateFinding[] {
  const found: GateFinding[] = [];
  if (tp.requiredKeywords.length > 0) {
    const hit = containsAny(text, tp.requiredKeywords, language);
    found.push({ gate: `${type}: keywords`, passed: hit !== null, detail: hit ? `has "${hit}"` : 'none of its required keywords' });
    if (!hit) return found;
  }
  if (tp.minSimilarity !== null && tp.examples.length > 0) {
    const s = similarity(type);
    found.push(
      s === null
        ? { gate: `${type}: similarity`, passed: true, detail: 'not measured: the embedding model does not cover this language' }
        : { gate: `${type}: similarity`, passed: s >= tp.minSimilarity, detail: `cosine ${s.toFixed(2)} to its examples; at least ${tp.minSimilarity} needed` },
    );
  }
  return found;
}

/** The types whose similarity gate will be asked for: those proposed whose keyword gate passes. */
export function similarityNeeded(candidates: Candidate[], policy: AdmissionPolicy, language: Language): string[] {
  const types = new Set<string>();
  for (const c of candidates) {
    for (const label of c.labels) {
      const tp = policy.types[label];
      if (!tp || tp.minSimilarity === null || tp.examples.length === 0) continue;
      if (tp.requiredKeywords.length === 0 || containsAny(c.text, tp.requiredKeywords, language)) types.add(label);
    }
  }
  return [...types];
}

export function admit(input: { candidates: Candidate[]; policy: AdmissionPolicy; language: Language; similarity: SimilarityOf }): AdmissionDecision[] {
  const { policy, language } = input;
  let highUsed = 0;
  return input.candidates.map(({ labels, ...candidate }) => {
    const proposedType = labels[0] ?? policy.defaultType;
    const gates: GateFinding[] = [];
    const reject = (reason: string): AdmissionDecision => ({ verdict: 'rejected', candidate, proposedType, type: null, gates, reason });
    if (policy.roleplayGuard) {
      gates.push(roleplayGuard({ labels, ...candidate }));
      if (!gates[gates.length - 1]!.passed) return reject(gates[gates.length - 1]!.detail);
    }
    if (policy.chitchat.enabled && candidate.memoryKind === 'prose') {
      gates.push(chitchatFilter({ labels, ...candidate }, policy, language));
      if (!gates[gates.length - 1]!.passed) return reject(gates[gates.length - 1]!.detail);
    }
    let chosen: string | null = null;
    let failedOnReject = false;
    for (const label of labels.length ? labels : [policy.defaultType]) {
      const tp = policy.types[label];
      if (chosen !== null) {
        if (tp?.importance === 'high') gates.push({ gate: `${label}: one label per message`, passed: false, detail: `already labelled ${chosen}` });
        continue;
      }
      if (!tp) {
        chosen = label;
        continue;
      }
      if (tp.importance === 'high' && highUsed >= policy.maxHighImportanceLabels) {
        gates.push({ gate: `${label}: one label per message`, passed: false, detail: `the message already carries ${highUsed} high-importance label(s)` });
        continue;
      }
      const found = typeGates(label, tp, candidate.text, language, input.similarity);
      gates.push(...found);
      if (found.every((f) => f.passed)) {
        chosen = label;
        if (tp.importance === 'high') highUsed++;
      } else if (tp.onFail === 'reject') failedOnReject = true;
    }
    if (chosen !== null) {
      const verdict = chosen === proposedType ? 'admitted' : 'retyped';
      return { verdict, candidate, proposedType, type: chosen, gates, reason: verdict === 'admitted' ? `admitted as ${chosen}` : `proposed as ${proposedType}, stored as ${chosen}` };
    }
    if (failedOnReject) return reject(`failed the gates of ${proposedType}, whose policy rejects rather than retypes`);
    return { verdict: 'retyped', candidate, proposedType, type: policy.defaultType, gates, reason: `failed the gates of ${labels.join(', ')}; stored as ${policy.defaultType}` };
  });
}
