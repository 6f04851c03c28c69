import { fromVectorBinary, fromVectorText, toVectorBinary, toVectorText } from './postgres-embedding-cache';

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

describe("pgvector's binary form", () => {
  it('reads each float32 back exactly from the big-endian layout vector_send writes', () => {
    const values = Float32Array.from([0, 1, -1, 0.1, 1e-38, -3.4028234663852886e38, 1 / 3, Math.PI]);
    const bytes = Buffer.alloc(4 + values.length * 4);
    bytes.writeInt16BE(values.length, 0);
    values.forEach((v, i) => bytes.writeFloatBE(v, 4 + i * 4));
    expect(fromVectorBinary(bytes)).toEqual(values);
    // At an odd offset inside a larger buffer, as a driver may hand it over.
    const shifted = Buffer.concat([Buffer.from([9]), bytes]).subarray(1);
    expect(fromVectorBinary(shifted)).toEqual(values);
  });

  it('writes the same layout it reads', () => {
    const values = Float32Array.from([0.5, -2, 1e-7, 3.4028234663852886e38]);
    const bytes = toVectorBinary(values);
    expect(bytes.readInt16BE(0)).toBe(4);
    expect(bytes.readInt16BE(2)).toBe(0);
    expect(bytes.readFloatBE(4 + 4 * 3)).toBe(values[3]);
    expect(fromVectorBinary(bytes)).toEqual(values);
  });

  it('refuses bytes that are not one whole vector', () => {
    expect(() => fromVectorBinary(Buffer.from([0, 2, 0, 0, 1, 2, 3, 4]))).toThrow(RangeError);
    expect(() => fromVectorBinary(Buffer.from([0]))).toThrow(RangeError);
  });
});
