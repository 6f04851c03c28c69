import { changedForQuestion, changedParts, changingParts, MAX_PART_WORDS, turnParts } from './turn-parts';

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

describe('turnParts: the statements inside a turn', () => {
  it('cuts a turn into its sentences, each a span of the text as written', () => {
    const text = 'Hi there! Our staging cluster now runs on eight nodes. The nightly backup finishes at 3am.';
    const parts = turnParts(text);
    expect(parts.map((p) => p.text)).toEqual(['Our staging cluster now runs on eight nodes.', 'The nightly backup finishes at 3am.']);
    for (const p of parts) expect(text.slice(p.start, p.end)).toBe(p.text);
  });

  it('leaves out questions, requests and code', () => {
    const text =
      'I moved the queue to a new host last week. Can you check my config? ```js\nconst retries = 5; // five retries\n``` Please tell me what `maxRetries = 3` does. The worker pool has 12 threads.';
    expect(turnParts(text).map((p) => p.text)).toEqual(['I moved the queue to a new host last week.', 'The worker pool has 12 threads.']);
  });

  it('keeps the statement of a sentence that then asks, and not the request', () => {
    expect(turnParts('Our API has 40 endpoints, can you list the ones without tests?').map((p) => p.text)).toEqual(['Our API has 40 endpoints']);
    expect(turnParts('The shared volume has now grown to 2 TB, so which retention flags should I use?').map((p) => p.text)).toEqual(['The shared volume has now grown to 2 TB']);
    expect(turnParts('Can you list the endpoints of our API, please?')).toEqual([]);
  });

  it('cuts a long run-on sentence at its clauses and keeps a relative clause with what it is about', () => {
    const text =
      "I'm refactoring the billing service to use the new payment gateway, and the integration suite has grown to 340 tests, which now take about 9 minutes to run on the CI runners, but I still want to split them by module so that failures are easier to read and rerun quickly when something breaks.";
    const parts = turnParts(text);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(words(p.text)).toBeLessThanOrEqual(MAX_PART_WORDS);
      expect(text.slice(p.start, p.end)).toBe(p.text);
    }
    expect(parts.some((p) => p.text.includes('340 tests, which now take about 9 minutes'))).toBe(true);
  });

  it('keeps a short statement whole, and makes nothing of greetings alone', () => {
    expect(turnParts('The API gateway listens on port 8443.').map((p) => p.text)).toEqual(['The API gateway listens on port 8443.']);
    expect(turnParts('Thanks, that helps!')).toEqual([]);
  });

  it('reads Korean sentences too', () => {
    const text = '회의실 예약 담당자는 이지은입니다. 다음 주 회의는 화요일이에요.';
    expect(turnParts(text).map((p) => p.text)).toEqual(['회의실 예약 담당자는 이지은입니다.', '다음 주 회의는 화요일이에요.']);
  });
});

describe('changedParts: a statement inside an earlier turn that a new one changes', () => {
  const earlier = (text: string) => [{ memoryId: 'old', text }];
  const changes = (before: string, after: string) => changedParts(changingParts(after, 'en'), earlier(before), 'en');

  it.each([
    [
      'Morning! I spent the weekend on the billing service. Its integration suite has 120 tests and takes 9 minutes on CI. I also moved the design docs to the wiki.',
      'Quick update on billing: the integration suite now has 180 tests after the refund cases went in.',
      'Its integration suite has 120 tests and takes 9 minutes on CI.',
      '180 tests',
    ],
    [
      "I'm planning the office move, and the lease on the Harbour Street space ends on June 30, 2026, so we have to be out by then. Can you draft a checklist?",
      'The landlord agreed to an extension, so the lease on the Harbour Street space now ends on September 30, 2026.',
      "I'm planning the office move, and the lease on the Harbour Street space ends on June 30, 2026, so we have to be out by then.",
      'September 30, 2026',
    ],
    [
      "I've been tracking my training: my weekly long run is 14 km at an easy pace, and I'm doing two interval sessions.",
      'After last month my weekly long run has grown to 18 km, still at an easy pace.',
      "I've been tracking my training: my weekly long run is 14 km at an easy pace, and I'm doing two interval sessions.",
      '18',
    ],
    [
      'Release notes are drafted. Our page weight was 900 KB on the landing page before the image work.',
      'The image work paid off: page weight on the landing page dropped from 900 KB to 610 KB.',
      'Our page weight was 900 KB on the landing page before the image work.',
      '610',
    ],
    [
      'The nightly build took 14 minutes on the shared runners - can you help me find what to cache?',
      'Good news: the nightly build now takes 9 minutes on the shared runners.',
      'The nightly build took 14 minutes on the shared runners',
      '9 minutes',
    ],
    [
      'We set the deadline of the first release to June 3, 2026, with the docs done a week before.',
      'The new release deadline is June 10, 2026, after the audit.',
      'We set the deadline of the first release to June 3, 2026, with the docs done a week before.',
      'June 10, 2026',
    ],
    [
      'I tagged a release of my repository, which has 150 commits and 12 branches merged.',
      'I keep an eye on the commits merged into my main branch, which have now reached 165.',
      'I tagged a release of my repository, which has 150 commits and 12 branches merged.',
      '165',
    ],
    ['My typing accuracy is 91% over 30 lessons.', 'My typing accuracy has now improved to 95% after finishing 40 lessons.', 'My typing accuracy is 91% over 30 lessons.', '95%'],
  ])('%#: replaces the part that said the old value and keeps the rest', (before, after, part, value) => {
    const found = changes(before, after);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ memoryId: 'old', part: { text: part } });
    expect(found[0]!.newValue).toContain(value);
    expect(before.slice(found[0]!.part.start, found[0]!.part.end)).toBe(part);
  });

  it.each([
    ['a goal, not a value that held', 'Our goal is to get the checkout latency under 200ms by the end of the quarter.', 'The checkout latency is currently 340ms on the slowest devices.'],
    ['another holder', 'My sister now has 3 kids and lives near the lake.', 'I have 2 kids and we now live near the lake too.'],
    ['another qualifier of the same thing', 'The staging cluster runs 6 worker nodes since the upgrade.', 'The production cluster now runs 9 worker nodes after the migration.'],
    ['nothing says it holds now', 'The billing integration suite has 120 tests in total.', 'The billing integration suite had 180 tests in the old repository.'],
    ['the same value said again', 'The billing integration suite has 120 tests.', 'The billing integration suite now has 120 tests, all green.'],
    ['another unit', 'The nightly export of the billing tables takes 40 minutes.', 'The nightly export of the billing tables is now 12 GB.'],
    ['another thing named on each side', 'The repository auth-service now has 40 open issues.', 'The repository billing-api has 25 open issues now.'],
    ['a value it came from', 'The search index had 2 million documents in March.', 'We trimmed the search index from 3 million documents to 2.5 million, now lighter.'],
    ['a change from another value', 'The p95 latency of the login page was 480ms in the last sprint.', 'The p95 latency of the login page improved from 520ms to 410ms.'],
    ['the same word said of another thing', 'The error rate for the checkout service is 2% this week.', 'The error rate on the search cluster is now 5% after the reindex.'],
    [
      'a number without a unit that counts nothing the earlier part counted',
      'I tagged a release of my repository, which has 150 commits and 12 branches merged.',
      'I keep an eye on the stars of my repository, which have now reached 165.',
    ],
    [
      'a count of things done, which adds up',
      'Its integration suite has 120 tests and takes 9 minutes on CI.',
      'Quick update: for the integration suite I recently wrote 180 tests on the refund cases.',
    ],
    ["the agent's own turn, before", 'assistant: Here is a plan. Day 3 (May 4) is for load testing, then the review.', 'The load testing for the release now starts on May 9.'],
    ["the agent's own turn, after", 'The load testing for the release starts on May 4.', 'assistant: Noted! With the new date, load testing for the release now starts on May 9.'],
  ])('keeps both: %s', (_why, before, after) => {
    expect(changes(before, after)).toEqual([]);
  });

  it('compares only the parts that say a value holds now, and finds nothing to look up otherwise', () => {
    expect(changingParts('Thanks for the help with the refund cases!', 'en')).toEqual([]);
    expect(changingParts('The integration suite now has 180 tests.', 'en').map((p) => [...p.topic])).toEqual([['integration', 'suit']]);
  });
});

describe('changedForQuestion: a value the question asks for, said again later', () => {
  const at = (day: number) => new Date(Date.UTC(2025, 0, day));
  const turn = (memoryId: string, day: number, text: string, speaker = 'user') => ({ memoryId, text, speaker, validFrom: at(day) });
  // Two long turns about the same figure: too little in common for the rule that holds at write time.
  const earlier = turn(
    'm1',
    1,
    "user: We're rebuilding the checkout page in React this month, the design review went well, and the median page load of the checkout is about 900ms on a cold cache, which the marketing team keeps complaining about.",
  );
  const later = turn(
    'm2',
    20,
    'user: Quick update while I wire up analytics events for the funnel: the checkout page load has now dropped to 420ms after we split the vendor bundle and deferred the chat widget script.',
  );

  it('leaves out the older statement of the value the question names, for the newer one', () => {
    expect(changedParts(changingParts(later.text, 'en'), [earlier], 'en')).toEqual([]);
    const changes = changedForQuestion('What is the page load time of the checkout page?', [later, earlier], 'en');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ memoryId: 'm1', byMemoryId: 'm2', oldValue: '900ms', newValue: '420ms' });
    expect(earlier.text.slice(changes[0]!.part.start, changes[0]!.part.end)).toContain('900ms');
    expect(changes[0]!.rule).toContain('as the question asks it');
  });

  it('leaves nothing out for a question about how the value went', () => {
    for (const q of [
      'How many days passed between the slow checkout page load and the fast one?',
      'How did the checkout page load go from 900ms to 420ms?',
      'What was the initial page load time of the checkout page?',
    ])
      expect(changedForQuestion(q, [earlier, later], 'en')).toEqual([]);
  });

  it('needs the question to name the topic in both statements', () => {
    expect(changedForQuestion('How is the funnel analytics going?', [earlier, later], 'en')).toEqual([]);
  });

  it('compares turns of one speaker, never the agent, and only an older with a newer that says its value holds now', () => {
    const other = { ...earlier, speaker: 'dana' };
    expect(changedForQuestion('What is the page load time of the checkout page?', [other, later], 'en')).toEqual([]);
    const agent = { ...earlier, text: earlier.text.replace(/^user:/, 'assistant:') };
    expect(changedForQuestion('What is the page load time of the checkout page?', [agent, later], 'en')).toEqual([]);
    // Said the other way round, the later turn says no word of now: a value merely said later may be of another occasion.
    const sooner = { ...later, validFrom: at(0) };
    expect(changedForQuestion('What is the page load time of the checkout page?', [earlier, sooner], 'en')).toEqual([]);
  });

  it('keeps a count of things done, which adds up, unless a word says it is a total', () => {
    const first = turn('m5', 1, 'user: For the parser refactor I closed 12 tickets this sprint, mostly small ones.');
    const second = turn('m6', 20, 'user: This sprint I closed 9 tickets for the parser refactor, two of them large.');
    const q = 'How many tickets did I close for the parser refactor?';
    expect(changedForQuestion(q, [first, second], 'en')).toEqual([]);
    const total = turn('m7', 20, 'user: For the parser refactor I have now closed 21 tickets in total.');
    expect(changedForQuestion(q, [first, total], 'en').map((c) => c.byMemoryId)).toEqual(['m7']);
  });

  it('keeps both when each names another thing, as at write time', () => {
    const staging = turn('m3', 1, 'user: The staging checkout page load is about 900ms on a cold cache.');
    const production = turn('m4', 20, 'user: The production checkout page load has now dropped to 420ms.');
    expect(changedForQuestion('What is the page load time of the checkout page?', [staging, production], 'en')).toEqual([]);
  });
});
