/**
 * English: the words the rules read, one list per concept. Data only; the rules that use them stay
 * in their own files (extraction, resolution, restatement, admission, forgetting, query hygiene).
 */
import { defineLanguage, words } from './words';

const counting = words('one two three four five six seven eight nine ten');
const weekdays = words('sunday monday tuesday wednesday thursday friday saturday');
const months = words('january february march april may june july august september october november december');
const seasons = words('spring summer autumn fall winter');
const relatives = [
  'brother',
  'sister',
  'sibling',
  'wife',
  'husband',
  'partner',
  'spouse',
  'girlfriend',
  'boyfriend',
  'fianc[eé]e?',
  'son',
  'daughter',
  'kid',
  'child',
  'mom',
  'mum',
  'mother',
  'dad',
  'father',
  'parent',
  'friend',
  'roommate',
  'flatmate',
  'neighbou?r',
  'cousin',
  'aunt',
  'uncle',
  'grandma',
  'grandmother',
  'grandpa',
  'grandfather',
  'colleague',
  'coworker',
];

export const en = defineLanguage({
  code: 'en',

  // ---- stopwords: one base list, and what each purpose drops besides it -------------------------

  /** Words that carry no topic wherever they stand: articles, conjunctions, prepositions, pronouns, "be". */
  stopwords: words(`a an the and or but so to of in on at by for with from is are was were be been am i me my we our you your
    he his she her it its they them their this that these those no yes just really very too please`),
  /** More function words that a statement's slot and a query's terms both leave out (auxiliaries, wh-words, contractions). */
  functionWords: words(`if then about into over after before being do does did done have has had having mine us yours him
    what which who whom whose when where why how can could would should will shall may might must not also again still ever
    always there here any some i'm it's don't didn't doesn't isn't aren't wasn't let's hey hi`),
  /** What a statement's slot also leaves out: particles of phrasal verbs, degree adverbs, light verbs, more contractions. */
  statementFillerWords: words(`under up down out off ours fully completely totally entirely mostly finally officially basically
    pretty quite more less much many all each every other such only own same than as around usually often got get gets go
    goes going went gone come comes came one's i've i'd i'll we're we've we'll that's there's weren't won't can't cannot well
    oh ok okay thanks`),
  /** What a retrieval query also leaves out: the words of asking ("tell", "know", "said"). */
  queryFillerWords: words(`anyway lol hello tell know said say says you're what's now`),
  /** What a chat message also leaves out when its content words are counted: fillers and small talk. */
  chatFillerWords: words(`ok okay oh ah um uh yeah yep nope lol haha hahaha hehe hmm wow cool nice great sure thanks thank thx ty`),

  // ---- time --------------------------------------------------------------------------------------

  weekdays,
  months,
  seasons,
  /** Words of time that date a statement without being about its slot. */
  timeWords: [...words('today yesterday tomorrow tonight week weekend month year ago last next this morning afternoon evening night'), ...seasons, ...months, ...weekdays],
  /** Days a unit of time counts. */
  unitDays: { day: 1, week: 7, month: 30, year: 365 } as Readonly<Record<string, number>>,
  /** Words before a time phrase that make a month's or a weekday's name a time ("in April", "on Friday"). */
  timePrepositions: words('in on since during over at from until by early late mid before after back'),
  /** Words that qualify a thing by its time ("my old address"): a request adds them, a memory need not say them. */
  timeQualifiers: words('old new current previous former last latest earlier recent first original'),

  // ---- numbers -----------------------------------------------------------------------------------

  /** Counting words one to ten, in order. */
  counting,
  numberWords: { zero: 0, no: 0, ...Object.fromEntries(counting.map((w, i) => [w, i + 1])), a: 1, an: 1, single: 1 } as Readonly<Record<string, number>>,
  /** Amounts said in words besides the numbers ("a couple of weeks ago"). */
  amountPhrases: { 'a couple of': 2, 'couple of': 2, 'a few': 3, few: 3 } as Readonly<Record<string, number>>,

  // ---- change ------------------------------------------------------------------------------------

  /** Words that say a change, not what changed. */
  changeWords: words(`now nowadays lately recently moved move moves moving relocated relocate switched switch changed change changes
    updated update new newly since bumped bump upgraded upgrade downgraded downgrade raised raise lowered lower cut
    reduced reduce increased increase decreased decrease renamed rename replaced replace instead rather quit left
    leave joined join started start dropped drop picked pick sold gone anymore longer stopped stop became become
    becomes turns turned turn out actually wrong mistake correction meant days these from forward onwards on use
    using called grew grown grow shrank shrunk rose fallen fell doubled halved expanded added adopted transferred
    transfer migrated migrate ported bought buy got went take takes taking took taken over hand hands handing
    handed handover pass passes passing passed step steps stepping stepped succeed succeeds succeeded successor
    appoint appoints appointed promote promotes promoted assign assigns assigned reassign reassigned swap swaps
    swapped charge reins`),
  /** The additive words themselves ("also", "another"): no part of a slot. */
  additiveWords: words('also too another addition besides other well'),
  changeCues: {
    correction: /\b(?:turns? out|turned out|actually|it was wrong|was wrong|by mistake|correction|i meant|after all|not really)\b/i,
    retraction: /\b(?:no longer|not any ?more|don'?t\s+\w+\s+anymore|quit|stopped|sold|got rid of|gave up|left)\b/i,
    /**
     * Besides the verbs of change, those of a role passing from one holder to another, in any
     * tense: "has taken over as", "handed the … role to", "stepped in as", "succeeded", "was appointed".
     */
    update:
      /\b(?:now|nowadays|these days|lately|from now on|from today on|starting today|from today|going forward|henceforth|since|new|moved|relocated|switched|changed|updated|bumped|upgraded|downgraded|raised|lowered|cut|reduced|increased|decreased|renamed|replaced|instead of|joined|started|dropped|picked up|became|is now called|are now called|moved up|went up|went down|grew|shrank|doubled|halved|expanded|transferred|migrated|ported|bought|gone|turned(?! out)|(?:take[sn]?|took|taking) over|(?:hand(?:s|ed|ing)?|pass(?:es|ed|ing)?) (?:over|off|on)|(?:handed|passed|gave|given|reassigned|transferred)\b[^.;!?]{1,60}?\bto|step(?:s|ped|ping)? (?:in|up|down)|succeed(?:s|ed)?|(?:was|were|has been|got|is|been) (?:appointed|promoted|named|made|put in charge)|appointed|promoted|reassigned|swapped|in charge now|(?:took|taken|taking) the reins)\b/i,
    additive: /\b(?:also|too|as well|another|in addition|besides|other)\b/i,
    negation: /\b(?:not|no longer|never|n't|anymore)\b/i,
    /** A fix said in plain words (fixes.ts): the value it replaces never held. */
    fix: /\b(?:typo|mis-?typed|misspelt|misspelled|misspoke|mis-?said|i meant(?: to say)?|i mean|correction|scratch that|strike that|my bad|my mistake|i was wrong|that was wrong|that's wrong|that is wrong|wrongly|let me correct|to correct (?:that|myself)|i got (?:that|it) wrong)\b/i,
  },

  /** Cues of mood (mood.ts): a condition, a maybe, a plan or hearsay; a verb in the past; a day of its own; a claim of every time. */
  moodCues: {
    hypothetical:
      /\b(?:if|unless|once|should\s+(?:the|our|my|we|i|he|she|they)|in case|might|may\s+(?:be|have|move|switch|change|get)|could(?:\s+one day)?|would|maybe|perhaps|possibly|potentially|probably|thinking (?:about|of)|considering|plan(?:s|ning)? to|(?:want|wants|wanted|hope|hoping|hopes) to|will\s+(?:probably|likely|maybe)|there(?:'s| is) (?:talk|a rumou?r|a chance)|rumou?red|supposedly|allegedly|(?:is|are) expected to|as long as)\b/i,
    past: /\b(?:[a-z]{3,}ed|went|met|saw|got|left|took|made|ran|began|bought|sold|won|lost|gave|came|wrote|drove|flew|ate|drank|heard|kept|held|led|built|sent|spent|taught|thought|brought|caught|found|told|said|paid|skipped|missed|had|did)\b/i,
    day: /\b(?:yesterday|last\s+(?:night|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'s)?|\d+\s+(?:days?|weeks?|months?|years?)\s+ago|this\s+(?:morning|afternoon|evening)|on\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}|\d{4}-\d{2}-\d{2})\b/i,
    general: /\b(?:never|always|every\s+(?:time|day|week|morning)|each\s+time|not\s+once|ever)\b/i,
  },

  // ---- people and things -------------------------------------------------------------------------

  /** Third parties whose facts are theirs, not the speaker's: "my brother lives in…" (as pattern alternatives: "fianc[eé]e?"). */
  relatives,
  /** People (and pets) of the speaker's as extraction reads "my …": the relatives and more; telling about them, not about the speaker. */
  personNouns: [...relatives, 'best friend', 'children', 'baby', 'boss', 'manager', 'co-worker', 'teammate', 'family', 'dog', 'cat', 'pet'],
  /** Nouns that name an attribute of a thing ("payment service port"): the relation of a config fact. */
  attributeNouns: words(`port host hostname url endpoint version timeout limit size region zone owner lead name address email phone
    channel window schedule key path level mode database db branch cluster image tag replicas memory cpu budget deadline date
    time location status plan tier price rate quota capacity`),
  /** Relation names: one name for the ways people say it. */
  relationSynonyms: {
    email: ['e-?mail', 'e-?mail address', 'mail address', 'email id'],
    'phone number': ['phone', 'phone number', 'mobile', 'mobile number', 'cell', 'cell number', 'cellphone number', 'number'],
    name: ['name', 'full name'],
    address: ['address', 'home address'],
    birthday: ['birthday', 'bday', 'b-day', 'date of birth', 'birth date'],
    job: ['job', 'occupation', 'profession', 'job title'],
    'works at': ['employer', 'company', 'workplace'],
    'lives in': [],
  } as Readonly<Record<string, readonly string[]>>,
  /** A verdict on something of one's own, not a value of it: "my job is boring", "my back is killing me". */
  opinionWords: [
    'boring',
    'stressful',
    'fun',
    'great',
    'good',
    'bad',
    'fine',
    'ok',
    'okay',
    'awful',
    'terrible',
    'amazing',
    'interesting',
    'busy',
    'hard',
    'easy',
    'tiring',
    'exhausting',
    'broken',
    'dead',
    'down',
    'gone',
    'lost',
    'missing',
    'full',
    'empty',
    'hurting',
    'killing me',
    'driving me crazy',
    'a mess',
    'a nightmare',
    'a secret',
    'complicated',
    'weird',
  ],
  /** Openers that do not change what follows: "btw, I moved to…", "Oh well, my email is…" (in the order they are tried). */
  openers: [
    'and',
    'so',
    'btw',
    'by the way',
    'also',
    'oh',
    'well',
    'ok',
    'okay',
    'anyway',
    'fyi',
    'actually',
    'honestly',
    'now',
    'update',
    'heads up',
    'fun fact',
    'guess what',
    'just so you know',
    'as you know',
    'for the record',
    'sorry',
    'oops',
    'whoops',
    'my bad',
    'my mistake',
    'correction',
    'scratch that',
    'strike that',
    'wait',
    'no',
    'to be clear',
  ],

  // ---- grammar (restatement reads a statement's frame by these) -----------------------------------

  articles: words('the a an'),
  copulas: ['is', 'are', 'was', 'were', 'am', "'s", 'be', 'been', 'becomes', 'became', 'remains', 'remained', 'stays', 'stayed'],
  /** Auxiliaries besides the copulas. */
  auxiliaries: words(`has have had will would can could should shall may might must does do did isn't aren't wasn't weren't hasn't haven't won't doesn't don't didn't can't`),
  subjectPronouns: words('i we you they he she it who this that'),
  /** Irregular past forms that carry a clause. */
  irregularPastVerbs: words(`went met saw got left took made ran began bought sold won lost gave came became wrote drove flew ate drank read heard kept
    held led built sent spent taught thought brought caught found told said paid put set sat stood grew knew chose spoke`),
  /** Quantifiers that, like the determiners, open a noun phrase ("some", "each"). */
  quantifiers: words('some any each every no one'),
  prepositions: words(`of in on at to for with by from into onto as than about via per since until after before during under over between
    through toward towards near inside outside within without`),
  conjunctions: words('and or but nor so because while when where which that who if'),
  /** The speaker and the one spoken to. */
  personalPronouns: words('i me my mine we us our ours you your yours myself ourselves yourself'),
  monthAbbreviations: words('jan feb mar apr jun jul aug sep sept oct nov dec'),
  /** Predicates that hold one value at a time by their meaning: a spouse, a birthplace, an employer, an author. */
  oneValuePredicates: [
    ['married', 'to'],
    ['citizen', 'of'],
    ['national', 'of'],
    ['native', 'of'],
    ['born', 'in'],
    ['born', 'on'],
    ['died', 'in'],
    ['died', 'on'],
    ['lives', 'in'],
    ['lives', 'at'],
    ['resides', 'in'],
    ['located', 'in'],
    ['located', 'at'],
    ['based', 'in'],
    ['headquartered', 'in'],
    ['employed', 'by'],
    ['works', 'for'],
    ['works', 'at'],
    ['reports', 'to'],
    ['owned', 'by'],
    ['led', 'by'],
    ['headed', 'by'],
    ['managed', 'by'],
    ['run', 'by'],
    ['chaired', 'by'],
    ['founded', 'by'],
    ['founded', 'in'],
    ['created', 'by'],
    ['written', 'by'],
    ['authored', 'by'],
    ['developed', 'by'],
    ['designed', 'by'],
    ['invented', 'by'],
    ['built', 'by'],
    ['composed', 'by'],
    ['directed', 'by'],
    ['produced', 'by'],
    ['published', 'by'],
    ['manufactured', 'by'],
    ['performed', 'by'],
    ['painted', 'by'],
    ['discovered', 'by'],
    ['named', 'after'],
    ['set', 'to'],
    ['scheduled', 'for'],
    ['due', 'on'],
    ['due', 'by'],
    ['assigned', 'to'],
    ['hosted', 'on'],
    ['deployed', 'to'],
    ['pinned', 'to'],
    ['works', 'as'],
    ['serves', 'as'],
  ] as readonly (readonly string[])[],
  /** Words that make a role one of a kind ("favourite", "main", "current"). */
  uniqueWords: words(`favourite favorite best worst main primary principal current only sole preferred default usual official latest newest
    oldest first last top most least chief head lead home native`),
  /** Verbs of what happens: events accumulate. */
  eventVerbs: words(`visited visits met meets saw sees went goes attended attends bought buys ate eats watched watches read reads won wins lost
    traveled travelled travels called calls emailed sent sends gave gives received receives took takes tried tries finished finishes
    completed completes started joined played hiked climbed ran cooked baked painted wrote published shipped released fixed merged
    deployed opened closed launched hosted celebrated adopted drove flew stayed talked`),
  /** Verbs whose objects make a set: what one speaks, uses, likes, depends on, has. */
  setVerbs: words(`speaks speak uses use likes like loves love enjoys enjoy depends depend has have owns own knows know supports support
    includes include contains contain plays play follows follow needs need wants want hates hate collects collect studies study teaches
    teach reads writes`),

  /** Words before a thing that make it no other thing ("my address", "the port"). */
  determiners: words('the a an my our your his her their its this that these those'),

  /** What a story's third person does ("She smiles…", "Minji laughed…"): narration, not something the speaker told (admission's role-play guard). */
  narrationVerbs: words(`smiles smiled laughs laughed nods nodded sighs sighed looks looked walks walked leans leaned whispers whispered grins
    grinned blushes blushed turns turned steps stepped giggles giggled shrugs shrugged winks winked`),
  /** Declarations and life events said without an admission keyword ("I promise", "we got engaged"): the population triage keeps them. */
  declarationVerbs: ['will always', 'promise', 'love', 'trust', "can't imagine", 'got', 'became', 'bought', 'passed', 'finished', 'started', 'graduated', 'moved in', 'said yes', 'proposed'],

  /** Requests to forget (forgetting.ts): what may trail a request without naming anything ("…, please", "for good"). */
  forgetting: {
    trailing: [
      'please',
      'for me',
      'now',
      'right now',
      'entirely',
      'completely',
      'altogether',
      'permanently',
      'for good',
      'as well',
      'too',
      'either',
      'thanks',
      'thank you',
      'if you can',
      'if possible',
    ],
  },

  /** Ways of asking for a value over time (over-time.ts), one pattern each; the first that matches is the cue. */
  overTimeCues: [
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
  ] as readonly RegExp[],

  /** Cues of a turn's parts (turn-parts.ts): where a clause opens, a value said to hold now, a count said as a total, a goal or a limit before a value, a unit, a question of how a value went. */
  turnCues: {
    /** Where a clause may start after a comma, semicolon or dash: words that open a clause of its own. */
    clauseOpeners:
      /^(?:and|but|so|or|because|since|although|though|while|whereas|yet|then|plus|also|now|however|considering|especially|including|after|before|when|as|given|if|unless|until|meaning|i|i'm|i've|i'd|we|we're|we've|my|our|it|it's|this|that's|there|they)\b/iu,
    /** Words that say a value is the current one or a changed one ("now", "has grown to", "the new …"). */
    state:
      /\b(?:now|new|newly|recently|currently|lately|these days|as of today|increased|improved|reached|extended|expanded|grown|grew|raised|lowered|dropped|reduced|cut|bumped|updated|changed|moved|upgraded|downgraded|doubled|halved|total of|went up|went down|up to|down to)\b/iu,
    /**
     * What says a count is a total that holds now ("now has 180 tests", "has reached 165", "a total
     * of 10 cards"). Counts of things done accumulate ("I recently solved 8 problems" is one more
     * session, not a new total), so "recently", "new" or "improved" alone do not make a count a state.
     */
    count:
      /\b(?:now|currently|as of today|total of|in total|so far|reached|grown|grew|increased|raised|lowered|dropped|reduced|cut|bumped|updated|changed|moved|upgraded|downgraded|extended|expanded|doubled|halved|went up|went down|up to|down to)\b/iu,
    /** A value named as a goal, a limit or a wish is not what holds ("targeting under 200ms", "get it down to 290ms"). */
    goalBefore:
      /\b(?:goal|goals|target|targets|targeting|aim|aiming|aims|want|wants|wanted|hope|hoping|plan|planning|planned|trying to (?:reach|get|hit|achieve)|to achieve|to reach|to hit|to get|need to|needs to|should|would|could|limit|max|maximum|min|minimum|under|below|above|at least|at most|up to|per)\b[^.;]{0,24}$/iu,
    /** Units a value is counted in: the word before the next one is the value's, not a qualifier. */
    unit: /^(?:ms|s|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?|kb|mb|gb|tb|km|mi|miles?|kg|lbs?|cm|mm|px|percent|points?|dollars?|euros?)$/u,
    /**
     * A question about how a value went rather than what it is ("how many days between …", "how
     * long did it take to go from 60% to 85%", "what was my initial score", "which came first: … or
     * …"): the earlier values are its answer, so none is left out for it.
     */
    howItWent:
      /\bhow (?:many|much) (?:days|weeks|months|years|time)\b|\b(?:between|how long|since when|before|earlier|previous|previously|original|originally|initial|initially|at first|used to|over time|history|changed?|progress)\b|\bfrom\s+[^\s,?]+\s+to\b|\bfirst\b[^?]*\bor\b/iu,
  },
  /** Stems of the verbs of effort and talk that any two requests share ("try", "help", "figur"): no topic in common. */
  discourseStems: [
    'try',
    'want',
    'need',
    'make',
    'sure',
    'help',
    'ensure',
    'figur',
    'understand',
    'know',
    'think',
    'look',
    'work',
    'get',
    'keep',
    'let',
    'like',
    'also',
    'still',
    'already',
    'currently',
    'recently',
    'improv',
    'reach',
    'achiev',
    'total',
    'manag',
  ],

  // ---- topics (triage) ---------------------------------------------------------------------------

  /** Topics in the order they are tried, and the words that name each (pattern alternatives: "relocat\\w*"). */
  topicWords: {
    account: ['password', 'log ?in', 'login', 'account', 'sign ?in', 'username'],
    contact: ['e-?mail', 'phone', 'mobile', 'contact'],
    home: ['live', 'lives', 'living', 'lived', 'moved', 'move', 'moving', 'relocat\\w*', 'home', 'apartment', 'flat', 'house', 'address', 'neighbou?rhood'],
    work: ['job', 'jobs', 'work', 'works', 'working', 'office', 'company', 'employer', 'boss', 'colleague', 'promot\\w*', 'hired', 'career', 'salary', 'team'],
    relationships: [
      'girlfriend',
      'boyfriend',
      'wife',
      'husband',
      'partner',
      'married',
      'engaged',
      'wedding',
      'dating',
      'family',
      'mom',
      'dad',
      'mother',
      'father',
      'sister',
      'brother',
      'friend',
      'son',
      'daughter',
      'baby',
    ],
    health: ['sick', 'ill', 'doctor', 'hospital', 'allerg\\w*', 'medicine', 'pain', 'diet', 'headache', 'symptom\\w*'],
    preferences: ['favou?rite', 'like', 'likes', 'love', 'loves', 'prefer', 'prefers', 'enjoy', 'enjoys', 'hate', 'hates', 'dislike'],
    config: ['port', 'config\\w*', 'setting', 'set to', 'env', 'deploy\\w*', 'server', 'service', 'version', 'database', 'endpoint', 'timeout', 'host', 'branch', 'release'],
    schedule: ['meeting', 'appointment', 'tomorrow', 'tonight', 'schedule', 'deadline', 'calendar', 'birthday', 'anniversary'],
    identity: ['name', 'called', 'born', 'age'],
  } as Readonly<Record<string, readonly string[]>>,

  // ---- what a question asks for ------------------------------------------------------------------

  /**
   * The controlled vocabulary of slots (resolution): word stems that name one slot in different
   * ways (`heads`: "diet", "email") and words that are themselves a value of it (`values`: "vegan").
   */
  slotWords: {
    home: { heads: ['live', 'liv', 'lif', 'based', 'bas', 'resid', 'relocat', 'home', 'hous', 'apartment', 'flat', 'hometown', 'address', 'addres'] },
    email: { heads: ['email', 'e-mail', 'mail', 'inbox', 'contact', 'reach', 'writ', 'send'] },
    phone: { heads: ['phone', 'number', 'mobil', 'cell', 'call', 'reach', 'contact', 'text'] },
    job: {
      heads: ['job', 'work', 'occupation', 'profession', 'career'],
      values: ['nurs', 'teach', 'teacher', 'engineer', 'developer', 'doctor', 'lawyer', 'designer', 'chef', 'accountant', 'student', 'writer', 'pilot', 'scientist'],
    },
    employer: { heads: ['employer', 'employ', 'company', 'firm', 'joined', 'join', 'hired', 'work', 'job', 'startup'] },
    manager: { heads: ['manager', 'lead', 'boss', 'supervisor', 'report', 'head'] },
    username: { heads: ['usernam', 'username', 'handl', 'handle', 'nick', 'nicknam', 'login', 'account'] },
    sleep: { heads: ['sleep', 'bed', 'bedtim', 'asleep', 'wak', 'wake'] },
    commute: {
      heads: ['commut', 'commute', 'rid', 'ride', 'travel'],
      values: ['subway', 'bus', 'train', 'car', 'bik', 'bike', 'scooter', 'walk', 'metro', 'tram', 'vespa', 'motorbik', 'motorcycl', 'ferry'],
    },
    car: { heads: ['car', 'driv', 'drive', 'vehicl', 'vehicle'] },
    drink: {
      heads: ['drink', 'beverag'],
      values: ['coffe', 'coffee', 'tea', 'latt', 'latte', 'espresso', 'americano', 'cappuccino', 'juic', 'water', 'soda', 'beer', 'wine', 'kombucha', 'matcha', 'smoothi'],
    },
    diet: { heads: ['diet', 'eat'], values: ['vegetarian', 'vegan', 'meat', 'keto', 'pescatarian', 'omnivor', 'halal', 'kosher'] },
    language: {
      heads: ['learn', 'study', 'studi', 'languag', 'language', 'speak'],
      values: [
        'english',
        'spanish',
        'japanes',
        'japanese',
        'korean',
        'chines',
        'chinese',
        'mandarin',
        'french',
        'german',
        'italian',
        'portugues',
        'russian',
        'arabic',
        'hindi',
        'dutch',
        'swedish',
        'turkish',
        'vietnames',
        'thai',
      ],
    },
    school: { heads: ['school', 'grade', 'class', 'college', 'university', 'universiti', 'study', 'studi', 'student', 'transferr', 'transfer', 'enrol'] },
    tool: { heads: ['tool', 'deploy', 'build', 'ci', 'editor', 'ide', 'framework', 'librari', 'library', 'stack'] },
    timeout: { heads: ['timeout', 'ttl', 'expir', 'expiry', 'time-out'] },
    port: { heads: ['port', 'listen'] },
    version: { heads: ['version', 'pin', 'pinn', 'pinned', 'releas', 'release'] },
    path: { heads: ['path', 'url', 'endpoint', 'rout', 'route', 'base'] },
    name: { heads: ['nam', 'name', 'renam', 'title'] },
    count: { heads: ['kid', 'child', 'children', 'son', 'daughter'] },
    pet: { heads: ['pet'], values: ['dog', 'cat', 'puppi', 'puppy', 'kitten', 'parrot', 'hamster', 'rabbit', 'turtl', 'turtle', 'fish', 'guinea'] },
    allergy: { heads: ['allergic', 'allergi', 'allergy'] },
    preference: { heads: ['prefer', 'preference', 'favourit', 'favorit', 'favourite', 'favorite', 'go-to', 'want', 'rather', 'choos'] },
  } as Readonly<Record<string, { heads?: readonly string[]; values?: readonly string[] }>>,

  slotQuestionWords: {
    home: ['home', 'live', 'address', 'based'],
    email: ['email', 'mail'],
    phone: ['phone', 'number'],
    job: ['job', 'work', 'occupation', 'profession'],
    employer: ['employer', 'company', 'work'],
    manager: ['manager', 'boss', 'lead'],
    username: ['username', 'handle'],
    sleep: ['sleep', 'bed', 'bedtime'],
    commute: ['commute', 'work', 'travel'],
    car: ['car', 'drive'],
    drink: ['drink'],
    diet: ['diet', 'eat'],
    language: ['language', 'learn', 'speak'],
    school: ['school', 'grade', 'study'],
    tool: ['tool', 'use'],
    timeout: ['timeout'],
    port: ['port'],
    version: ['version'],
    path: ['path'],
    name: ['name'],
    allergy: ['allergy', 'allergic'],
    pet: ['pet'],
    preference: ['prefer', 'favourite', 'favorite'],
  } as Readonly<Record<string, readonly string[]>>,
});
