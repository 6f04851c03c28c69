import { unstorable, unstorableFields } from './storable-text';

describe('text the log can hold', () => {
  it('refuses NUL and lone surrogates, and keeps every other text, astral characters and Korean included', () => {
    expect(unstorable('a\u0000b')).toMatch(/NUL/);
    expect(unstorable('a\uD800b')).toMatch(/surrogate/);
    expect(unstorable('a\uDC00')).toMatch(/surrogate/);
    expect(unstorable('\uDFFF\uD800')).toMatch(/surrogate/);
    for (const fine of ['', 'plain', '대전으로 이사했어', 'emoji 😀 pair \uD83D\uDE00', 'tab\tand\nnewline', '\u0001 other controls']) expect(unstorable(fine)).toBeNull();
  });

  it('names each bad string by its path, in arrays, nested objects and object keys, and ignores numbers, booleans and dates', () => {
    const input = { claims: [{ says: 'fine' }, { says: 'bad\u0000' }], scope: { env: 'x\uD800', ['k\u0000']: 'v' }, n: 1, ok: true, at: new Date(0), none: null };
    expect(unstorableFields(input)).toEqual([
      { path: 'claims.1.says', message: expect.stringMatching(/NUL/) },
      { path: 'scope.env', message: expect.stringMatching(/surrogate/) },
      { path: 'scope.k\uFFFD', message: expect.stringMatching(/^a field name .*NUL/) },
    ]);
    expect(unstorableFields('top\u0000')).toEqual([{ path: '', message: expect.stringMatching(/NUL/) }]);
    expect(unstorableFields({ a: ['fine', { b: 'fine' }] })).toEqual([]);
  });
});
