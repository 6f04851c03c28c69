import { inputIssues, MAX_INPUT_DEPTH, MAX_INPUT_VALUES, unstorable } from './input-hygiene';

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
    expect(inputIssues(input)).toEqual([
      { path: 'claims.1.says', message: expect.stringMatching(/NUL/) },
      { path: 'scope.env', message: expect.stringMatching(/surrogate/) },
      { path: 'scope.k\uFFFD', message: expect.stringMatching(/^a field name .*NUL/) },
    ]);
    expect(inputIssues('top\u0000')).toEqual([{ path: '', message: expect.stringMatching(/NUL/) }]);
    expect(inputIssues({ a: ['fine', { b: 'fine' }] })).toEqual([]);
  });
});

describe('the shape of an input', () => {
  it('refuses __proto__, constructor and prototype as field names at any depth, as JSON.parse makes them', () => {
    const parsed = JSON.parse('{"scope":{"__proto__":"staging"},"ops":[{"assert":{"constructor":"x"}}],"prototype":1}');
    expect(inputIssues(parsed)).toEqual([
      { path: 'scope.__proto__', message: '"__proto__" is not allowed as a field name' },
      { path: 'ops.0.assert.constructor', message: '"constructor" is not allowed as a field name' },
      { path: 'prototype', message: '"prototype" is not allowed as a field name' },
    ]);
    expect(inputIssues({ scope: { proto: 'x', constructs: 'y' } })).toEqual([]);
  });

  it(`names an input nested deeper than ${MAX_INPUT_DEPTH} levels, however deep, without a stack overflow`, () => {
    const deep = JSON.parse(`${'['.repeat(5000)}"x"${']'.repeat(5000)}`);
    const issues = inputIssues({ text: deep });
    expect(issues).toEqual([{ path: ['text', ...Array(MAX_INPUT_DEPTH - 1).fill('0')].join('.'), message: `nests deeper than ${MAX_INPUT_DEPTH} levels` }]);
    let justDeepEnough: unknown = 'x';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) justDeepEnough = [justDeepEnough];
    expect(inputIssues(justDeepEnough)).toEqual([]);
  });

  it(`stops at ${MAX_INPUT_VALUES} values`, () => {
    expect(inputIssues({ many: Array(MAX_INPUT_VALUES).fill(1) })).toEqual([{ path: '', message: `holds more than ${MAX_INPUT_VALUES} values` }]);
    expect(inputIssues({ many: Array(MAX_INPUT_VALUES - 2).fill(1) })).toEqual([]);
  });
});
