import { MAX_PART_WORDS, turnParts } from './turn-parts';

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
