/**
 * Turning an HTTP request into a command's or query's raw input. Validation stays in the ledger;
 * this only shapes what HTTP delivers (a body, strings in a query, a path) into one object, and
 * names the field when the shape itself is wrong.
 */
import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidInputError } from '@factledger/domain';
import { tenantSchema } from '@factledger/ledger';

/** The request body as an object; no body is an empty one. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidInputError([{ path: '', message: 'the body must be a JSON object' }]);
  }
  return { ...(body as Record<string, unknown>) };
}

/**
 * The query string as an object, with the named fields decoded from JSON (`scope={"env":"prod"}`).
 * A field that is not valid JSON is a field-level 400 before anything reaches the ledger.
 */
export function queryObject(query: unknown, jsonFields: readonly string[] = []): Record<string, unknown> {
  const input: Record<string, unknown> = { ...((query ?? {}) as Record<string, unknown>) };
  for (const field of jsonFields) {
    const raw = input[field];
    if (typeof raw !== 'string') continue;
    try {
      input[field] = JSON.parse(raw);
    } catch {
      throw new InvalidInputError([{ path: field, message: `must be a JSON object, e.g. {"env":"prod"}` }]);
    }
  }
  return input;
}

/** Names the `tenant` path segment in the error, rather than the ledger's bare root path. */
@Injectable()
export class TenantPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const result = tenantSchema.safeParse(value);
    if (!result.success) throw new InvalidInputError(result.error.issues.map((i) => ({ path: 'tenant', message: i.message })));
    return result.data;
  }
}
