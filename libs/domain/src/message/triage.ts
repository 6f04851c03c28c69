/**
 * Utterance triage (R8), rule-based and offline: is a message informing (store it) or asking
 * (retrieve for it), in which language, about what topic. Works sentence by sentence, so a
 * message that says something and then asks something is informing for its statements only;
 * a question is never a source of memories.
 */

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

/** Sentences with their end punctuation; stage directions in asterisks stay inside their sentence. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。？！])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const EN_WH = /^(?:what|where|when|who|whom|whose|why|how|which)(?:'s|'re)?\s+(?:is|are|was|were|do|does|did|can|could|would|should|will|am|have|has|had|i|my|you|your|the|a|it|much|many|long|old|about)\b/i;
const EN_AUX = /^(?:do|does|did|is|are|am|was|were|can|could|would|should|will|shall|may|have|has|had|isn't|aren't|don't|doesn't|didn't|won't|can't)\s+(?:i|you|we|they|he|she|it|my|your|our|the|this|that|there|anyone|someone)\b/i;
const EN_REQUEST = /^(?:(?:please\s+)?(?:tell|remind|show|give)\s+me\b|(?:do\s+)?you\s+(?:know|remember)\b|i\s+(?:wonder|forgot)\s+(?:what|where|when|who|how|if|whether)\b)/i;
const KO_WH = /뭐|무엇|무슨|어디|언제|누구|누가|왜|어떻게|몇|어느|얼마/;
const KO_ENDING_ALWAYS = /(?:니|냐|나요|까|까요|을까|ㄹ까|는지|던가|던가요|려나)$/;
const KO_ENDING_WITH_WH = /(?:지|야|요|죠|나|가|래|데|어|었지|였지|더라)$/;

export function isQuestion(sentence: string, language: Language): boolean {
  const s = sentence.replace(/\*[^*]*\*/g, ' ').trim();
  if (/[?？]\s*$/.test(s)) return true;
  const bare = s.replace(/[.!。！~\s]+$/, '');
  if (language === 'ko') {
    return KO_ENDING_ALWAYS.test(bare) || (KO_WH.test(bare) && KO_ENDING_WITH_WH.test(bare));
  }
  return EN_WH.test(bare) || EN_AUX.test(bare) || EN_REQUEST.test(bare);
}

/** Topics in the order they are tried; the first whose words appear names the message's topic. */
const TOPICS: [string, RegExp][] = [
  ['account', /\b(?:password|log ?in|login|account|sign ?in|username)\b|비밀번호|계정|로그인/i],
  ['contact', /\b(?:e-?mail|phone|mobile|contact)\b|이메일|메일|전화|연락처/i],
  ['home', /\b(?:live|lives|living|lived|moved|move|moving|relocat\w*|home|apartment|flat|house|address|neighbou?rhood)\b|이사|살아|살고|사는|집|주소|동네/i],
  ['work', /\b(?:job|jobs|work|works|working|office|company|employer|boss|colleague|promot\w*|hired|career|salary|team)\b|회사|직장|취업|입사|승진|출근|근무|일해/i],
  ['relationships', /\b(?:girlfriend|boyfriend|wife|husband|partner|married|engaged|wedding|dating|family|mom|dad|mother|father|sister|brother|friend|son|daughter|baby)\b|결혼|약혼|가족|친구|엄마|아빠|아기/i],
  ['health', /\b(?:sick|ill|doctor|hospital|allerg\w*|medicine|pain|diet|headache|symptom\w*)\b|아파|병원|알레르기|약을|다이어트/i],
  ['preferences', /\b(?:favou?rite|like|likes|love|loves|prefer|prefers|enjoy|enjoys|hate|hates|dislike)\b|좋아|싫어|선호/i],
  ['config', /\b(?:port|config\w*|setting|set to|env|deploy\w*|server|service|version|database|endpoint|timeout|host|branch|release)\b|설정|포트|서버|배포|버전/i],
  ['schedule', /\b(?:meeting|appointment|tomorrow|tonight|schedule|deadline|calendar|birthday|anniversary)\b|약속|회의|일정|내일|생일|기념일/i],
  ['identity', /\b(?:name|called|born|age)\b|이름|나이/i],
];

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
