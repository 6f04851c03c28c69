/**
 * Times as the API takes them, pure: an ISO 8601 date (`2026-03-01`, midnight UTC) or date-time
 * (a time without a zone is UTC). A date that does not exist (`2026-02-30`) is refused rather than
 * rolled into the next month, and so is any time outside the years 1 to 9999: year 0 and the
 * years past 9999 have no ISO 8601 form the store and every reader agree on.
 */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

// Date.UTC reads the years 0 to 99 as 1900 to 1999: year 1 is set on its own.
export const EARLIEST_TIME = new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(1);
export const LATEST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Why a time cannot be used (outside the years 1 to 9999, or not a time at all), or null. */
export function timeOutOfRange(time: Date): string | null {
  const ms = time.getTime();
  if (Number.isNaN(ms)) return 'is not a real date';
  return ms < EARLIEST_TIME || ms > LATEST_TIME ? 'must be within the years 1 to 9999' : null;
}

/** The time an ISO 8601 text names, or why it names none. */
export function readIsoTime(text: string): Date | { error: string } {
  const m = ISO_TIME.exec(text);
  if (!m) return { error: 'must be an ISO 8601 date or date-time, e.g. 2026-03-01 or 2026-03-01T12:00:00Z' };
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  // Date.UTC rolls 30 February into March: a date that comes back changed does not exist.
  const calendar = new Date(Date.UTC(2000, month - 1, day));
  if (month < 1 || month > 12 || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day || (day === 29 && month === 2 && !leap(year))) return { error: 'is not a real date' };
  if (hour > 23 || minute > 59 || second > 59) return { error: 'is not a real time of day' };
  const zoned = m[7] !== undefined;
  const ms = Date.parse(text.length > 10 && !zoned ? `${text.replace(' ', 'T')}Z` : text);
  if (Number.isNaN(ms)) return { error: 'is not a real date' };
  const time = new Date(ms);
  const range = timeOutOfRange(time);
  return range ? { error: range } : time;
}

/** The time a caller gave: a Date (a library call) or ISO 8601 text (JSON), checked as readIsoTime checks text. */
export function readTime(value: Date | string): Date | { error: string } {
  if (typeof value === 'string') return readIsoTime(value);
  const range = timeOutOfRange(value);
  return range ? { error: range } : value;
}

/** readTime for a schema: the time, or undefined after `issue` was told why there is none. */
export function timeOrIssue(value: Date | string, issue: (message: string) => void): Date | undefined {
  const time = readTime(value);
  if (time instanceof Date) return time;
  issue(time.error);
  return undefined;
}

const leap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
