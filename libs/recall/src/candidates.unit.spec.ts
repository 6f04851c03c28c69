import { type Finds, type Found, oneState, settled, trigramWords } from './candidates';

const found = { memory_id: 'm' } as Found;
const finds = (state: string | null, rows = 1): Finds => ({ rows: Array.from({ length: rows }, () => found), state, lag: null, stems: null });

describe('oneState', () => {
  it('holds when every statement that found something read the same state of the facts', () => {
    expect(oneState([finds('12/900'), finds('12/900'), finds('12/900')])).toBe(true);
    // A statement that found nothing cannot have brought a version from another state.
    expect(oneState([finds('12/900'), finds(null, 0), finds('13/901', 0)])).toBe(true);
    expect(oneState([])).toBe(true);
  });

  it('fails when two statements read different states, or a state is unknown', () => {
    expect(oneState([finds('12/900'), finds('13/900')])).toBe(false);
    expect(oneState([finds('12/900'), finds('12/901')])).toBe(false);
    expect(oneState([finds('12/900'), finds(null)])).toBe(false);
  });
});

describe('trigramWords', () => {
  it('keeps the first eight distinctive words, so that the statements a search prepares stay few', () => {
    const words = Array.from({ length: 12 }, (_, i) => `단어${i}`);
    expect(trigramWords(words)).toEqual(words.slice(0, 8));
    expect(trigramWords(['minji', '4821'])).toEqual(['minji', '4821']);
  });
});

describe('settled', () => {
  it('throws the first failure only once every statement has finished, so none is left running', async () => {
    let slowDone = false;
    const slow = new Promise<number>((resolve) => setTimeout(() => ((slowDone = true), resolve(1)), 30));
    await expect(settled([Promise.reject(new Error('syntax error')), slow])).rejects.toThrow('syntax error');
    expect(slowDone).toBe(true);
    await expect(settled([Promise.resolve(1), Promise.resolve('a')])).resolves.toEqual([1, 'a']);
  });
});
