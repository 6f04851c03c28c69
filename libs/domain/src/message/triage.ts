/**
 * Utterance triage (R8), rule-based and offline: is a message informing (store it) or asking
 * (retrieve for it), in which language, about what topic. Works sentence by sentence, so a
 * message that says something and then asks something is informing for its statements only;
 * a question is never a source of memories.
 */
import { en, ko } from '../language';

export type MessageKind = 'inform' | 'ask';
export type Language = 'en' | 'ko' | 'other';

export interface Sentence {
  /** The sentence as written (a verbatim slice of the message). */
  text: string;
  act: 'statement' | 'question';
}

export interface Triage {
  kind: MessageKind;
  topic: string;
  language: Language;
  sentences: Sentence[];
  reasons: string[];
}

const HANGUL = /[\uac00-\ud7a3\u3131-\u318e]/g;
const LATIN = /[A-Za-z]/g;

export function detectLanguage(text: string): Language {
  const ko = text.match(HANGUL)?.length ?? 0;
  const en = text.match(LATIN)?.length ?? 0;
  if (ko === 0 && en === 0) return 'other';
  return ko >= en * 0.3 ? 'ko' : 'en';
}

/** Titles whose period ends no sentence when a name follows ("Dr. Park", "St. Louis"), and "e.g.", "i.e.", "vs.". */
const TITLE_BEFORE = /\b(?:Mr|Mrs|Ms|Mx|Dr|Prof|St|Mt|Ft|Sgt|Capt|Lt|Col|Gen|Rev|Hon)\.$/u;
const SHORT_FORM_BEFORE = /\b(?:e\.g|i\.e|vs|approx)\.$/iu;
/** Whether `next` goes on the sentence `before` ends with a title's or a short form's period. */
const continues = (before: string, next: string): boolean => (TITLE_BEFORE.test(before) && /^\p{Lu}/u.test(next)) || SHORT_FORM_BEFORE.test(before);

/** Sentences with their end punctuation; stage directions in asterisks stay inside their sentence. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\n+/)) {
    let open = false;
    for (const piece of line.split(/(?<=[.!?。？！])\s+/)) {
      // Joined again where the period belonged to a title or a short form ("My dentist is Dr. Park.").
      if (open && continues(sentences[sentences.length - 1]!, piece)) sentences[sentences.length - 1] += ` ${piece}`;
      else sentences.push(piece);
      open = true;
    }
  }
  return sentences.map((s) => s.trim()).filter((s) => s.length > 0);
}

const WH = String.raw`(?:what|where|when|who|whom|whose|why|how|which)`;
const AUX = String.raw`(?:is|are|was|were|am|do|does|did|can|could|would|should|will|shall|may|might|must|have|has|had|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|can't|couldn't|won't|wouldn't|shouldn't|haven't|hasn't)`;
/** A subject or determiner right after a wh-word starts a clause, not a question: "When I moved…", "How I wish…". */
const CLAUSE_SUBJECT = String.raw`(?:i|you|we|they|he|she|it|my|your|our|their|his|her|its|the|a|an|this|that|these|those|there)`;
/**
 * Wh-questions: the wh-word with a contracted verb ("what's"), or followed by a verb after at most
 * three words that are not a clause's subject ("where do…", "which city do…", "what kind of music
 * do…"), or "who/what" as the subject itself ("who lives…", "what happened"), or "what/how about/if".
 */
const EN_WH = new RegExp(
  String.raw`^${WH}(?:'s|'re|'d|'ll|'ve)\b` +
    String.raw`|^${WH}(?:\s+(?!${CLAUSE_SUBJECT}\b)[a-z]+){0,3}?\s+${AUX}\b` +
    String.raw`|^(?:who|what)\s+(?!${CLAUSE_SUBJECT}\b)[a-z]+(?:s|ed)\b` +
    String.raw`|^(?:what|how)\s+(?:about|if|come)\b`,
  'i',
);
/** "When I moved to Seoul, I was happy": a wh-clause followed by a main clause with its own subject is a statement. */
const EN_SUBORDINATE = /,\s*(?:i|you|we|they|he|she|it|my|your|our|their|his|her|the|this|there)\s+(?!(?:know|think|forgot|wonder|mean|guess|remember|believe)\b)[a-z']+/i;
/** Yes/no questions: an auxiliary, then a subject (a pronoun, a determiner or a capitalised name). */
const EN_AUX = new RegExp(String.raw`^${AUX}\s+(?:i|you|we|they|he|she|it|my|your|our|the|this|that|there|anyone|someone|anything)\b`, 'i');
// Not "Will" or "Can": "Will Smith is my favourite actor" opens with a name.
const EN_AUX_NAME = /^(?:[Ii]s|[Aa]re|[Ww]as|[Ww]ere|[Dd]oes|[Dd]id|[Hh]as)\s+\p{Lu}/u;
/**
 * Requests for what is remembered ("remind me…", "look up my…", "I forgot where…"); "you know," on
 * its own is a filler, so "you know" needs a wh-word or if/whether.
 */
const EN_REQUEST = new RegExp(
  String.raw`^(?:please\s+)?(?:tell|remind|show|give)\s+me\b` +
    String.raw`|^(?:please\s+)?(?:recall|look up|find|check|fetch|retrieve|list)\s+(?:my|what|where|when|who|which|the)\b` +
    String.raw`|^(?:do\s+)?you\s+(?:know|remember|recall)\s+(?:${WH}|if|whether)\b(?![,!])` +
    String.raw`|^i\s+(?:wonder|forgot|forget|can't remember|cannot remember|don't remember|do not remember|can't recall)\s+(?:${WH}|if|whether)\b` +
    String.raw`|^any\s+idea\s+(?:${WH}|if|whether)\b`,
  'i',
);
/** A request to keep something, which informs even as a question: "Can you remember that I moved to Busan?". */
const EN_KEEP_REQUEST = /^(?:(?:can|could|would|will)\s+you\s+|please\s+)*(?:remember|note|keep in mind|make a note)\s+that\s+/i;
/** A statement with a tag asking to confirm it: "You said I live in Busan, right". */
const EN_TAG = /,\s*(?:right|correct|isn't it|aren't i|don't i|didn't i|wasn't it|no)$/i;

const KO_WH = /뭐|무엇|무슨|어디|언제|누구|누가|왜|어떻게|몇|어느|얼마/;
/** Wh-words used as indefinites ("언제나" always, "몇 년 전" a few years ago) ask nothing; they are removed before the test. */
const KO_INDEFINITE = /(?:뭐|무엇|어디|언제|누구|아무)(?:에서|에|서)?(?:든지|든|나|라도|이나|이든)|왜냐하면|어떻게든|(?:몇|얼마)\s*(?:년|달|개월|주|일|시간|분)?\s*(?:전|후|뒤)/g;
/** Endings that ask on their own; "니" after 언/머 is a noun (언니, 어머니), not an ending. */
const KO_ENDING_ALWAYS = /(?:(?<![언머])니|냐|나요|까|까요|을까|ㄹ까|는지|던가|던가요|려나)$/;
/** Plain endings that ask only together with a wh-word: "어디 살아", "뭐 좋아해". */
const KO_ENDING_WITH_WH = /(?:지|야|요|죠|나|가|래|데|어|아|해|대|었지|였지|더라)$/;
/** Asking to be told: "내 이메일 알려줘". */
const KO_REQUEST = /(?:알려|말해|가르쳐)\s*(?:줘|주세요|줄래|줄래요|줄\s*수\s*있어)$/;

export function isQuestion(sentence: string, language: Language): boolean {
  const s = sentence.replace(/\*[^*]*\*/g, ' ').trim();
  if (language !== 'ko' && EN_KEEP_REQUEST.test(s)) return false;
  if (/[?？]\s*$/.test(s)) return true;
  const bare = s.replace(/[.!。！~\s]+$/, '');
  if (language === 'ko') {
    const direct = bare.replace(KO_INDEFINITE, ' ');
    return KO_ENDING_ALWAYS.test(bare) || KO_REQUEST.test(bare) || (KO_WH.test(direct) && KO_ENDING_WITH_WH.test(bare));
  }
  if (EN_REQUEST.test(bare) || EN_AUX.test(bare) || EN_AUX_NAME.test(bare) || EN_TAG.test(bare)) return true;
  return EN_WH.test(bare) && !EN_SUBORDINATE.test(bare);
}

/** Topics in the order they are tried; the first whose words appear names the message's topic. */
const TOPICS: [string, RegExp][] = Object.entries(en.topicWords).map(([topic, words]) => [topic, new RegExp(String.raw`\b(?:${words.join('|')})\b|${(ko.topicWords[topic] ?? []).join('|')}`, 'i')]);

export function topicOf(text: string): string {
  for (const [topic, pattern] of TOPICS) if (pattern.test(text)) return topic;
  return 'general';
}

export function triageMessage(text: string): Triage {
  const language = detectLanguage(text);
  const sentences: Sentence[] = splitSentences(text).map((s) => ({ text: s, act: isQuestion(s, language) ? 'question' : 'statement' }));
  const statements = sentences.filter((s) => s.act === 'statement').length;
  const questions = sentences.length - statements;
  const kind: MessageKind = statements > 0 ? 'inform' : 'ask';
  const reasons = [
    kind === 'ask'
      ? `asking: ${questions === 1 ? 'the message is a question' : `all ${questions} sentences are questions`}`
      : questions > 0
        ? `informing: ${statements} statement(s); ${questions} question(s) are not a source of memories`
        : 'informing: no question form',
  ];
  return { kind, topic: topicOf(text), language, sentences, reasons };
}
