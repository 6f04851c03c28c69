/** COPY's text format, for bulk loads through Session.copyIn (see database.ts). */

/**
 * Rows in COPY's text format: tab-separated columns, one line per row, `\N` for null, and
 * backslash escapes for backslash, tab, newline and carriage return. Dates go as ISO 8601,
 * booleans as t/f, objects as JSON. Written here rather than taken from a library: the format is
 * these four escapes, and the libraries that produce it build a stream per row.
 */
export function copyRows(rows: readonly (readonly unknown[])[]): string {
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i) out += '\t';
      out += copyValue(row[i]);
    }
    out += '\n';
  }
  return out;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  switch (typeof v) {
    case 'string':
      return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : v;
    case 'number':
    case 'bigint':
      return String(v);
    case 'boolean':
      return v ? 't' : 'f';
    default:
      return v instanceof Date ? v.toISOString() : copyValue(JSON.stringify(v));
  }
}
