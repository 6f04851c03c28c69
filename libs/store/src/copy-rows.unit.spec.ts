import { copyRows } from './copy-rows';

describe('copyRows (COPY text format)', () => {
  it('separates columns by tabs and rows by newlines, with \\N for null and undefined', () => {
    expect(
      copyRows([
        ['a', null, 1],
        ['b', undefined, 2.5],
      ]),
    ).toBe('a\t\\N\t1\nb\t\\N\t2.5\n');
  });

  it('escapes backslash, tab, newline and carriage return, so a literal \\N stays text', () => {
    expect(copyRows([['C:\\tmp\tx\ny\rz', '\\N']])).toBe('C:\\\\tmp\\tx\\ny\\rz\t\\\\N\n');
  });

  it('writes booleans as t/f, dates as ISO 8601 and objects as escaped JSON', () => {
    const at = new Date('2026-11-30T01:02:03.004Z');
    expect(copyRows([[true, false, at, { env: 'a\tb', path: 'c\\d' }]])).toBe('t\tf\t2026-11-30T01:02:03.004Z\t{"env":"a\\\\tb","path":"c\\\\\\\\d"}\n');
  });

  it('gives nothing for no rows', () => {
    expect(copyRows([])).toBe('');
  });
});
