import { cosineSimilarity, dotProduct, unitVector } from './embedder.port';

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

describe('unitVector and dotProduct', () => {
  it('scale a vector to length 1, so that the dot product of two is their cosine', () => {
    const a = [3, 4, 12];
    const b = [-1, 2, 0.5];
    expect(Array.from(unitVector(a))).toEqual([3 / 13, 4 / 13, 12 / 13].map((x) => Math.fround(x)));
    expect(dotProduct(unitVector(a), unitVector(b))).toBeCloseTo(cosineSimilarity(a, b), 6);
    expect(Array.from(unitVector([0, 0]))).toEqual([0, 0]);
    expect(() => dotProduct([1], [1, 2])).toThrow(RangeError);
  });
});
