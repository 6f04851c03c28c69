/** Which database errors pass (503, try again) and which are bugs (500): databaseFault. */
import { DatabaseUnavailableError, databaseFault } from './errors';

const pgError = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

describe('databaseFault', () => {
  it.each([
    ['57P01', 'database_unavailable'], // terminating connection due to administrator command
    ['57P03', 'database_unavailable'], // the database system is shutting down
    ['08006', 'database_unavailable'], // connection failure
    ['53300', 'database_unavailable'], // too many connections
    ['53100', 'database_full'], // could not extend file: no space left on device
    ['57014', 'database_timeout'], // canceling statement due to statement timeout
    ['40P01', 'database_unavailable'], // deadlock
  ])('takes SQLSTATE %s as %s', (code, kind) => {
    const fault = databaseFault(pgError(code));
    expect(fault).toBeInstanceOf(DatabaseUnavailableError);
    expect(fault!.code).toBe(kind);
    expect(fault!.message).toContain(code);
  });

  it('takes a refused or reset connection, and node-postgres losing its connection', () => {
    expect(databaseFault(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))?.code).toBe('database_unavailable');
    expect(databaseFault(new AggregateError([pgError('ECONNREFUSED')], 'connect failed'))?.code).toBe('database_unavailable');
    expect(databaseFault(new Error('Connection terminated unexpectedly'))?.code).toBe('database_unavailable');
    expect(databaseFault(new Error('timeout exceeded when trying to connect'))?.code).toBe('database_unavailable');
  });

  it('leaves everything else alone: a constraint, a syntax error, a bug', () => {
    expect(databaseFault(pgError('23505', 'duplicate key value'))).toBeNull();
    expect(databaseFault(pgError('42601', 'syntax error'))).toBeNull();
    expect(databaseFault(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeNull();
    expect(databaseFault('a string')).toBeNull();
  });
});
