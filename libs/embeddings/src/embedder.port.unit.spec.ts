import { cosineSimilarity } from './embedder.port';

describe('cosineSimilarity', () => {
  it('is 1 for the same direction, -1 for the opposite, 0 for orthogonal or zero vectors', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 10);
    expect(cosineSimilarity(Float32Array.from([1, 0]), Float32Array.from([-3, 0]))).toBeCloseTo(-1, 10);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });

  it('refuses vectors of different lengths', () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(RangeError);
  });
});
