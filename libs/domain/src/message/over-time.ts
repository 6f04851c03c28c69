/**
 * Whether a question asks for a value over time ("every X I've owned", "oldest first", "what did
 * we use before that", "지금까지 바뀐 순서대로"), pure. Such a question is answered by the chain of
 * values a memory went through, not by the one that holds now: recall then brings along, for each
 * memory it shows, the versions that memory replaced (recall.ts). A question of what holds now
 * ("What's our CI runner?") asks none of that, and neither does a question of how long or which
 * came first (turn-parts.ts weighs those).
 *
 * Cues, not a parse: a cue that fires for a question that only looked back costs a few lines of
 * the budget; a cue missed costs the answer. So a cue is kept wherever looking back is what it
 * means, and left out where the word is as often about something else ("before the meeting",
 * "first step", "in order", "get used to").
 */

/** Each pattern names one way of asking over time; the first that matches is the cue. */
const EN_CUES: readonly RegExp[] = [
  // Every value a holder went through: "every X I've owned", "all the Xs we used", "each X they tried".
  /\b(?:every|each|all(?:\s+of)?(?:\s+the)?)\s+(?:[\p{L}\p{N}'’-]+\s+){1,4}?(?:(?:that|which)\s+)?(?:we|i|you|they|he|she)(?:['’]ve|\s+have|\s+has|['’]d|\s+had)?\s+(?:ever\s+)?(?:had|used|tried|owned|held|lived|worked|switched|moved|driven|adopted|picked|chosen|gone\s+through|been\s+through|been\s+with|called)\b/iu,
  // "Which Xs have we had?", "What tools have I used?"
  /\b(?:which|what)\s+(?:[\p{L}\p{N}'’-]+\s+){0,4}(?:have|has)\s+(?:we|i|you|they|he|she)\s+(?:ever\s+)?(?:had|used|tried|owned|held|lived|worked|gone\s+through|been\s+through)\b/iu,
  // An order in time: "earliest first", "from oldest to newest", "newest back to oldest", "chronologically".
  /\bearliest\b|\b(?:from\s+(?:the\s+)?(?:oldest|first|beginning|start)|oldest)\s+(?:\S+\s+){0,2}?(?:to|through|till|until|up\s+to)\b|\b(?:latest|newest|most\s+recent)\s+(?:back\s+)?to\s+(?:the\s+)?(?:oldest|first)\b/iu,
  /\bchronolog\w*|\btimeline\b|\bin\s+(?:chronological|historical)\s+order\b|\bin\s+the\s+order\s+(?:they|it|we|i|you)\s+(?:came|happened|changed|held|were)\b/iu,
  // A past habit or state, not "get used to" (grow accustomed): "what did we use to run on", "I used to".
  /(?<!\b(?:be|am|is|are|was|were|been|being|get|gets|got|getting|['’]m|['’]re|['’]s)\s+)\bused\s+to\b|\bdid\s+(?:\S+\s+){1,3}?use\s+to\b/iu,
  /\bhistory\s+of\b|\b(?:the|its|their|his|her|my|our|your|full|whole|complete|past)\s+history\b(?!\s+(?:teacher|class|classes|course|courses|book|books|lesson|lessons|exam|museum|major|degree|podcast|homework))/iu,
  /\bover\s+(?:time|the\s+(?:years|months|weeks|decades|past\s+(?:few\s+)?(?:years|months|weeks)))\b|\bthrough\s+the\s+years\b|\bover\s+the\s+course\s+of\b/iu,
  // What came before: "before that", "before we switched", "what was it before?"; not "the week before May 3".
  /\bbefore\s+(?:that|then|this|it\s+(?:changed|was)|the\s+(?:change|switch|move))\b|\bbefore\s+(?:(?:we|i|you|they|he|she|it)\s+)?(?:switch|mov|chang|replac)\w*|\bbefore\s*[?.!]*\s*$/iu,
  /\bprevious(?:ly)?\b|\bprior\b|\bformer(?:ly)?\b|\bin\s+the\s+past\b|\bpast\s+(?:values?|versions?|ones)\b|\b(?:originally|initially|at\s+first|to\s+begin\s+with)\b|\boriginal\b/iu,
  // A change asked about: "how has X changed", "did the port change", "what changed".
  /\bhow\s+(?:has|have|did|does|do)\b[^?.!]*\b(?:chang(?:e|ed|ing)|evolv(?:e|ed|ing)|shift(?:ed)?)\b|\b(?:has|have|did)\b[^?.!]*\bchang(?:e|ed)\b|\bwhat\s+(?:has\s+|have\s+)?changed\b|\bevolution\s+of\b/iu,
  /\b(?:so\s+far|to\s+date|until\s+now|up\s+(?:to|till|until)\s+now|till\s+now|all\s+along)\b/iu,
];

const KO_CUES: readonly RegExp[] = [
  /지금까지|여태(?:까지)?|이제까지|그동안|그간/u,
  /예전|옛날|이전(?:에|엔|의|\s*(?:값|것|거|버전))|과거|그\s*전에?|전에는|바뀌기\s*전|바꾸기\s*전/u,
  /처음부터|처음에는?|처음엔|원래|애초에/u,
  /변천|변화|이력|내력|역대|히스토리/u,
  /(?:바뀐|변한|바뀌어\s*온|변해\s*온|바꿔\s*온)\s*(?:순서|과정|내역|것|거|목록)/u,
  /어떻게\s*(?:바뀌|바꼈|변하|변했|변해|달라)/u,
  /순서대로|차례대로|시간\s*순|오래된\s*(?:것|거|순)/u,
  /(?:써|사용해|거쳐)\s*(?:온|왔|간)/u,
  // Every one that was: "썼던 … 전부", "모든 … 살았던".
  /(?:모든|전부|모두|목록|(?:^|\s)다\s)[\s\S]*?(?:었|았|였|했|썼|샀|갔|왔|봤|됐)던|(?:었|았|였|했|썼|샀|갔|왔|봤|됐)던[\s\S]*?(?:모든|전부|모두|목록|\s다\s)/u,
];

/**
 * The words by which a question asks for a value over time (the first cue found, as written), or
 * null when it asks for what holds now. English and Korean cues are both read: a question in one
 * may quote a name in the other.
 */
export function overTimeCue(question: string): string | null {
  for (const cue of /[\uac00-\ud7a3]/u.test(question) ? [...KO_CUES, ...EN_CUES] : EN_CUES) {
    const m = cue.exec(question);
    if (m) return m[0].trim() || m[0];
  }
  return null;
}

/** Whether a question asks for a value over time (see `overTimeCue`). */
export function asksOverTime(question: string): boolean {
  return overTimeCue(question) !== null;
}
