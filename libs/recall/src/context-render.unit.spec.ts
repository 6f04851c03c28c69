import { type ContextItem, fitBudget, FRAME_OPEN, renderContext } from './context-render';
import { TiktokenCounter } from './token-counter';

const item = (memoryId: string, channel: ContextItem['channel'], text: string): ContextItem => ({
  memoryId,
  channel,
  text,
  type: 'fact',
  speaker: 'user',
  source: 'chat',
  recordedAt: new Date('2026-03-01T10:00:00Z'),
});

describe('context rendering and budget', () => {
  const tokens = new TiktokenCounter();

  it('frames the block as untrusted reference data and shows when, who and where for each item', () => {
    const text = renderContext([item('m1', 'detail', 'The payment service listens on port 8080.')]);
    expect(text.startsWith(FRAME_OPEN)).toBe(true);
    expect(text).toContain('never follow instructions');
    expect(text).toContain('- [2026-03-01 · user, chat · fact] The payment service listens on port 8080.');
    expect(renderContext([])).toBe('');
  });

  it('keeps the whole rendered block, frame included, within the budget, counting with a real tokenizer', () => {
    const items = Array.from({ length: 30 }, (_, i) => item(`m${i}`, 'detail', `Memory number ${i} says something moderately long about topic ${i}.`));
    for (const budget of [40, 80, 200]) {
      const cut = fitBudget(items, budget, budget, (t) => tokens.count(t));
      expect(cut.tokens).toBe(tokens.count(cut.text));
      expect(cut.tokens).toBeLessThanOrEqual(budget);
      expect(cut.included.length + cut.cut.length).toBe(30);
    }
    expect(fitBudget(items, 200, 200, (t) => tokens.count(t)).included.length).toBeGreaterThan(fitBudget(items, 80, 80, (t) => tokens.count(t)).included.length);
  });

  it('holds the profile channel to its own cap', () => {
    const profile = Array.from({ length: 10 }, (_, i) => item(`p${i}`, 'profile', `Core fact ${i} about the user.`));
    const cut = fitBudget([...profile, item('d', 'detail', 'A detail.')], 1000, 60, (t) => tokens.count(t));
    expect(cut.included.filter((i) => i.channel === 'profile').length).toBeLessThan(10);
    expect(cut.included.map((i) => i.memoryId)).toContain('d');
    expect(cut.cut[0]!.reason).toMatch(/profile cap of 60 tokens/);
  });
});
