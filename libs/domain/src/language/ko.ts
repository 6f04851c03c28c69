/**
 * Korean: the words the rules read, one list per concept. Data only; the rules that use them stay
 * in their own files. Particles and endings are listed here once, by what they mark; each rule
 * takes the groups it strips (`endingPattern`).
 */
import { defineLanguage } from './words';

/** Particles that stay on a word ("집은", "광주로"), by what they mark. */
const particles = {
  topic: ['은', '는'],
  subject: ['이', '가'],
  honorificSubject: ['께서'],
  object: ['을', '를'],
  possessive: ['의'],
  also: ['도'],
  only: ['만'],
  direction: ['으로', '로'],
  /** Where something happens, or from where ("회사에서"). */
  placeOfAction: ['에서'],
  /** Where something is, or where to ("서울에"). */
  place: ['에'],
  dative: ['에게', '한테'],
  from: ['부터'],
  until: ['까지'],
  with: ['와', '과'],
} as const;

const relatives = ['형', '누나', '오빠', '언니', '동생', '남편', '아내', '와이프', '아들', '딸', '엄마', '아빠', '어머니', '아버지', '친구', '남친', '여친', '남자친구', '여자친구'];

/** The copula at a clause's end ("파랑이야", "회의였다"). */
const copula = {
  present: ['입니다', '이에요', '예요', '이야', '이다'],
  /** The plain past ("서울이었어"); the polite and the written past below. */
  pastPlain: ['이었어', '였어'],
  pastPolite: ['이었습니다', '였습니다', '이었어요', '였어요'],
  pastWritten: ['이었다', '였다'],
  /** After a vowel ("민지야"). */
  short: ['야'],
  /** Joining a next clause ("서울이고"). */
  joining: ['이고'],
} as const;

export const ko = defineLanguage({
  code: 'ko',
  particles,
  copula,
  /** The polite ending that follows a word ("그래요"). */
  politeEnding: '요',

  /** The one stopword list: pronouns, fillers, the endings of saying; none of them names a slot. */
  stopwords: '우리 나 내 저 제 너 네 그 이 저기 거기 여기 좀 진짜 너무 정말 완전 그냥 이제 요즘 지금 했어 했다 했어요 있어 있다 왔어 갔어 됐어 돼 해 이야 거야 건 게'.split(' '),

  // ---- time --------------------------------------------------------------------------------------

  /** Words of time that date a statement without being about it. */
  timeWords: ['어제', '오늘', '내일', '그제', '작년', '올해', '내년', '최근', '아까', '방금', '주말'],
  /** "지난 주", "이번 달": a word that places a unit of time ("지난", "이번"), and the units it places. */
  timePlacers: ['지난', '저번', '이번', '다음'],
  timeUnits: ['주', '달', '해', '번'],
  /** Days a unit of time counts. */
  unitDays: { 일: 1, 주: 7, 주일: 7, 달: 30, 개월: 30, 년: 365 } as Readonly<Record<string, number>>,
  /** Korean's own words for a number of days. */
  dayCounts: { 하루: 1, 이틀: 2, 사흘: 3, 나흘: 4, 닷새: 5, 엿새: 6, 이레: 7, 여드레: 8, 아흐레: 9, 열흘: 10, 보름: 15 } as Readonly<Record<string, number>>,
  /** Words that qualify a thing by its time ("예전 주소"). */
  timeQualifiers: ['예전', '옛날', '이전', '지금', '현재', '새'],

  // ---- numbers -----------------------------------------------------------------------------------

  /** Number words: the counting forms ("하나", "둘") and the forms before a counter ("한 달", "두 주"). */
  numberWords: { 하나: 1, 한: 1, 둘: 2, 두: 2, 셋: 3, 세: 3, 넷: 4, 네: 4, 다섯: 5 } as Readonly<Record<string, number>>,
  /** The forms before a counter, in order. */
  counters: ['한', '두', '세', '네', '다섯'],

  // ---- change ------------------------------------------------------------------------------------

  changeCues: {
    correction: /(?:알고\s*보니|사실은|잘못|틀렸)/u,
    retraction: /(?:그만\s*뒀|그만\s*두|끊었|안\s*해|팔았|더\s*이상)/u,
    update: /(?:바뀌었|바뀜|바뀌|바꿨|변경|이사|옮겼|이제|요즘|새로|새\s|지금은|넘겼|넘겨|넘어갔|맡았|맡게|맡기로|인계|교체|후임|대신)/u,
    additive: /(?:또한|그리고\s*또|도\s|도$)/u,
    negation: /(?:아니|안\s|않|없)/u,
    fix: /(?:잘못\s*(?:말|얘기|이야기|썼|적었|알려|입력)|오타|정정|착각|틀리게\s*말|말을\s*잘못)/u,
  },

  /** Cues of mood (mood.ts): a condition, a maybe, a plan or hearsay; a verb in the past; a day of its own; a claim of every time. */
  moodCues: {
    /** A verb's "-면" (if) ends its clause: "바뀌면 ", "이사한다면, "; not the noun "라면을". */
    hypothetical: /(?:만약|만일|혹시|아마|면(?=[\s,])|지도\s*몰라|수도\s*있|생각\s*중|고민\s*중|계획|예정|하려고|할까|싶어|소문|카더라)/u,
    past: /(?:았|었|였|했)(?:어|다|지|는데|고)?/u,
    day: /(?:어제|그제|지난\s*(?:주|달|해|번)|[월화수목금토일]요일|\d+\s*(?:일|주|달|년)\s*전|오늘\s*아침)/u,
    general: /(?:한\s*번도|항상|늘|매번|언제나)/u,
  },

  // ---- people, places and things -----------------------------------------------------------------

  /** Third parties whose facts are theirs ("형은 서울에 살아"). */
  relatives,
  /** People (and pets) of the speaker's, and third-person pronouns, as extraction reads a topic: the relatives and more (pattern alternatives: "사장님?"). */
  personNouns: [...relatives, '부모님', '애인', '동료', '상사', '사장님?', '팀장님?', '선배', '후배', '할머니', '할아버지', '가족', '강아지', '고양이', '그', '그녀', '걔', '쟤'],
  /** City and province names, in their usual romanisation so both languages meet on one value. */
  places: {
    서울: 'Seoul',
    부산: 'Busan',
    대전: 'Daejeon',
    대구: 'Daegu',
    인천: 'Incheon',
    광주: 'Gwangju',
    울산: 'Ulsan',
    세종: 'Sejong',
    제주: 'Jeju',
    제주도: 'Jeju',
    수원: 'Suwon',
    성남: 'Seongnam',
    판교: 'Pangyo',
    분당: 'Bundang',
    창원: 'Changwon',
    전주: 'Jeonju',
    청주: 'Cheongju',
    천안: 'Cheonan',
    포항: 'Pohang',
    강릉: 'Gangneung',
    춘천: 'Chuncheon',
    원주: 'Wonju',
    여수: 'Yeosu',
    경주: 'Gyeongju',
    김해: 'Gimhae',
    고양: 'Goyang',
    용인: 'Yongin',
  } as Readonly<Record<string, string>>,
  /** What a city's name may end with ("부산광역시"). */
  citySuffixes: ['특별시', '광역시', '특별자치시', '시'],
  /** What a "좋아하는 X" (favourite X) names, in English, so both languages meet on one relation. */
  favouriteOf: {
    색: 'colour',
    색깔: 'colour',
    음식: 'food',
    음악: 'music',
    영화: 'movie',
    노래: 'song',
    가수: 'singer',
    책: 'book',
    동물: 'animal',
    운동: 'sport',
    스포츠: 'sport',
    과일: 'fruit',
    음료: 'drink',
    계절: 'season',
    게임: 'game',
    도시: 'city',
  } as Readonly<Record<string, string>>,
  /** Relation names, by the English name both languages meet on. */
  relationSynonyms: {
    email: ['이메일', '이메일 주소', '메일', '메일 주소'],
    'phone number': ['전화', '전화번호', '전화 번호', '휴대폰', '휴대폰 번호', '핸드폰 번호', '번호', '연락처'],
    name: ['이름', '성함'],
    address: ['주소', '집 주소'],
    birthday: ['생일', '생년월일'],
    job: ['직업'],
    'works at': ['직장', '회사'],
    'lives in': ['사는 곳', '사는 데', '사는 도시', '거주지'],
  } as Readonly<Record<string, readonly string[]>>,
  /** Nouns that name an attribute of a thing ("결제 서비스 포트"). */
  attributeNouns: '포트 호스트 주소 버전 담당자 리전 일정 채널 경로 이름 상태 마감'.split(' '),

  // ---- grammar (restatement reads a statement's frame by these) -----------------------------------

  /** The speaker and the one spoken to. */
  personalPronouns: ['나', '내', '저', '제', '우리', '너', '네'],
  weekdays: ['월요일', '화요일', '수요일', '목요일', '금요일', '토요일', '일요일'],
  /** Verbs that hold one place or one employer at a time (살다, 거주하다, 근무하다, 다니다, 출근하다), as a word's start. */
  oneValueVerbs: ['살', '거주', '근무', '다니', '다녀', '출근'],
  /** Words that make a role one of a kind ("제일", "최애", "담당자"). */
  uniqueWords: ['제일', '가장', '최애', '현재', '주요', '기본', '담당자', '책임자'],
  /** Verbs of what happens (events accumulate), as a word's start. */
  eventVerbs: ['방문', '갔', '다녀왔', '만났', '샀', '먹었', '봤', '보았', '참석', '여행', '했다', '했어'],
  /** Verbs whose objects make a set, as a word's start. */
  setVerbs: ['좋아', '사용', '써', '씁', '있', '알', '해요', '합니다', '배워', '공부'],

  /** How a change to a value is said after "Y로" ("포트는 9000으로 바뀌었어"; pattern alternatives). */
  changedTo: ['바뀌었어', '바뀌었다', '바뀜', '바꿨어', '바꿨다', '변경됐어', '변경되었어', '변경됐다', '변경했어', '설정했어', '설정됐어', '설정돼\\s*있어', '설정되어\\s*있어'],
  /** Topics that are the speaker or a time ("나는", "요즘은"): no one else's news. */
  selfOrTimeWords: [
    '나',
    '저',
    '난',
    '전',
    '내가',
    '제가',
    '나는',
    '저는',
    '나도',
    '저도',
    '우리',
    '우린',
    '우리는',
    '우리가',
    '우리도',
    '오늘은',
    '어제는',
    '요즘은',
    '지금은',
    '이제는',
    '현재는',
    '이번엔',
    '이번에는',
    '올해는',
    '최근에는',
    '드디어',
    '같이',
    '많이',
  ],
  /** Verbs' describing forms that end in "는" ("좋아하는 색", "사는 곳"): no topic. */
  adnominalVerbs: ['하는', '사는', '있는', '없는', '다니는', '먹는', '가는', '오는', '보는', '듣는', '쓰는', '읽는', '마시는', '타는', '입는', '만드는', '되는'],
  /** Adjectives whose describing form ends in "은" ("작은 강아지", "좋은 차"): no topic either. */
  eunAdjectiveStems: ['좋', '작', '많', '높', '낮', '넓', '좁', '깊', '얕', '얇', '젊', '늙', '맑', '밝', '검', '붉', '짧', '같', '적', '싫', '옳', '굵', '묽'],
  /** Somewhere unnamed, a question word or a pronoun: no value ("회사 근처", "어디"). */
  unnamedPlaces: ['어디', '여기', '거기', '저기', '집', '회사', '학교', '근처', '쪽', '곳', '데', '그곳', '이곳', '너', '당신', '그', '그녀', '걔', '너희', '우리'],

  /** Words before a thing that make it no other thing ("내 주소", "그 포트"). */
  determiners: ['내', '제', '우리', '나의', '저의', '그', '이', '저'],

  /** Declarations and life events ("사랑해", "합격했어"): the population triage keeps them. */
  declarationWords: ['사랑', '믿어', '함께', '약속', '결혼', '합격', '졸업', '입사', '처음'],

  /** Requests to forget (forgetting.ts): words of a request that name nothing ("제발", "기억에서"). */
  forgetting: {
    fillers: ['제발', '좀', '그냥', '다시', '영원히', '완전히', '깨끗이', '기억에서', '메모리에서', '머릿속에서'],
  },

  /** Ways of asking for a value over time (over-time.ts): "지금까지", "예전", "바뀐 순서대로". */
  overTimeCues: [
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
  ] as readonly RegExp[],

  // ---- topics (triage) ---------------------------------------------------------------------------

  /** The words that name each of triage's topics. */
  topicWords: {
    account: ['비밀번호', '계정', '로그인'],
    contact: ['이메일', '메일', '전화', '연락처'],
    home: ['이사', '살아', '살고', '사는', '집', '주소', '동네'],
    work: ['회사', '직장', '취업', '입사', '승진', '출근', '근무', '일해'],
    relationships: ['결혼', '약혼', '가족', '친구', '엄마', '아빠', '아기'],
    health: ['아파', '병원', '알레르기', '약을', '다이어트'],
    preferences: ['좋아', '싫어', '선호'],
    config: ['설정', '포트', '서버', '배포', '버전'],
    schedule: ['약속', '회의', '일정', '내일', '생일', '기념일'],
    identity: ['이름', '나이'],
  } as Readonly<Record<string, readonly string[]>>,

  // ---- what a question asks for ------------------------------------------------------------------

  /**
   * The controlled vocabulary of slots (resolution): word stems that name one slot in different
   * ways (`heads`: "diet", "email") and words that are themselves a value of it (`values`: "vegan").
   */
  slotWords: {
    home: { heads: ['집', '이사', '살', '거주', '사는', '주소'] },
    email: { heads: ['이메일', '메일'] },
    phone: { heads: ['전화', '번호', '휴대폰', '핸드폰', '연락처'] },
    job: { heads: ['직업'] },
    employer: { heads: ['회사', '직장', '입사', '이직'] },
    manager: { heads: ['팀장', '상사', '매니저'] },
    username: { heads: ['아이디', '닉네임'] },
    sleep: { heads: ['잠'] },
    commute: { heads: ['출근'], values: ['지하철', '버스'] },
    car: { heads: ['차', '자동차'] },
    drink: { heads: ['음료'], values: ['커피', '녹차', '차'] },
    diet: { heads: ['식단'], values: ['채식'] },
    language: { heads: ['공부', '배우', '언어'], values: ['영어', '일본어', '중국어', '스페인어', '프랑스어', '독일어'] },
    school: { heads: ['학교', '학년', '대학'] },
    timeout: { heads: ['타임아웃'] },
    port: { heads: ['포트'] },
    version: { heads: ['버전'] },
    path: { heads: ['경로'] },
    name: { heads: ['이름'] },
    count: { heads: ['아이', '자녀'] },
    pet: { values: ['강아지', '고양이'] },
    allergy: { heads: ['알레르기'] },
    preference: { heads: ['선호', '좋아하는'] },
  } as Readonly<Record<string, { heads?: readonly string[]; values?: readonly string[] }>>,

  slotQuestionWords: {
    home: ['집', '주소', '사는', '살아'],
    email: ['이메일', '메일'],
    phone: ['전화번호', '번호', '연락처', '휴대폰'],
    job: ['직업', '일'],
    employer: ['회사', '직장'],
    manager: ['팀장', '상사'],
    username: ['아이디', '닉네임'],
    sleep: ['잠', '자는'],
    commute: ['출근'],
    car: ['차', '자동차'],
    drink: ['음료', '마시는'],
    language: ['언어', '공부'],
    school: ['학교', '학년'],
    pet: ['반려동물'],
  } as Readonly<Record<string, readonly string[]>>,
});
