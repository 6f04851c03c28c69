import { fromVectorText, toVectorText } from './postgres-embedding-cache';

describe("pgvector's text form", () => {
  it('writes every float32 so that it reads back exactly, in the form pgvector takes', () => {
    const values = Float32Array.from([0, 1, -1, 0.1, 1e-38, -3.4028234663852886e38, 0.0607565604150295, 1 / 3, Math.PI]);
    const text = toVectorText(values);
    expect(text).toMatch(/^\[[^\]]+\]$/);
    expect(text.slice(1, -1).split(',')).toHaveLength(values.length);
    expect(fromVectorText(text)).toEqual(values);
    expect(toVectorText(new Float32Array(0))).toBe('[]');
  });
});
