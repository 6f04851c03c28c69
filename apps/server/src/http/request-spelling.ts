/**
 * A request's spelling, settled before any route is matched:
 *
 * - the path is made canonical (RFC 3986 §6.2.2): an escaped unreserved character is the
 *   character (`%76` is `v`), dot segments are resolved, runs of `/` are one, a trailing `/` is
 *   dropped; literal segments already match in any case (Express's default). So every spelling
 *   of a route reaches that route, and its door (access.ts). An escaped `/` or `\` (`%2F`, `%5C`)
 *   stays data inside its segment, never structure: such a spelling names no route and meets the
 *   fallback's door (fallback.controller.ts);
 * - a query string whose escapes spell bytes that are not UTF-8 is a 400 naming the parameter
 *   (the parser would read them as U+FFFD, text the caller never sent); the same for a body
 *   (`utf8Body`, the JSON parser's verify hook).
 */
import { Buffer, isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';
import { InvalidInputError } from '@factledger/domain';
import { toHttpError } from './ledger-exception.filter';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** The canonical form of a request path (see the module's note). */
export function canonicalPath(path: string): string {
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
  const normal = posix.normalize(decoded);
  return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
}

/** The bytes a form-encoded component spells (`+` is a space). */
function spelledBytes(component: string): Buffer {
  return Buffer.concat(
    component
      .replace(/\+/g, ' ')
      .split(/(%[0-9A-Fa-f]{2})/)
      .map((part) => (/^%[0-9A-Fa-f]{2}$/.test(part) ? Buffer.from([parseInt(part.slice(1), 16)]) : Buffer.from(part, 'utf8'))),
  );
}

/** The parameters of a raw query string whose name or value is not UTF-8, named as best they can be. */
export function notUtf8Parameters(query: string): string[] {
  const bad: string[] = [];
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    const nameBytes = spelledBytes(name);
    if (!isUtf8(nameBytes) || !isUtf8(spelledBytes(value))) bad.push(isUtf8(nameBytes) ? nameBytes.toString('utf8') : name);
  }
  return bad;
}

/** Express middleware: the canonical path, and a 400 for a query that is not UTF-8 (answered here: no route has run). */
export function requestSpelling(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const [path, query] = q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q + 1)];
  const bad = notUtf8Parameters(query);
  if (bad.length) {
    const error = toHttpError(new InvalidInputError(bad.map((name) => ({ path: name, message: 'the query parameter is not UTF-8' }))));
    res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(error.body));
    return;
  }
  const canonical = canonicalPath(path);
  if (canonical !== path) req.url = q < 0 ? canonical : `${canonical}?${query}`;
  next();
}

/** The JSON and form parsers' verify hook: a body that is not UTF-8 is refused before it is parsed. */
export function utf8Body(_req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  if (!isUtf8(body)) throw new InvalidInputError([{ path: '', message: 'the body is not UTF-8' }]);
}
