import { BadRequestException, NotFoundException } from '@nestjs/common';
import { CardinalityConflictError, IllegalLifecycleError, InvalidInputError, SlotTakenError, UnknownBatchError, UnknownMemoryError, UnknownMessageError } from '@factledger/domain';
import { ProjectionLagError } from '@factledger/projections';
import { ExpectedVersionConflict } from '@factledger/store';
import { toHttpError } from './ledger-exception.filter';

describe('toHttpError', () => {
  it.each([
    [new InvalidInputError([{ path: 'relation', message: 'required' }]), 400, 'invalid_input'],
    [new UnknownMemoryError('m1'), 404, 'unknown_memory'],
    [new UnknownBatchError('b1'), 404, 'unknown_batch'],
    [new UnknownMessageError('msg-1'), 404, 'unknown_message'],
    [new CardinalityConflictError('one', 'many'), 409, 'cardinality_conflict'],
    [new IllegalLifecycleError('cannot'), 409, 'illegal_lifecycle'],
    [new ExpectedVersionConflict('s', '1', 2), 409, 'version_conflict'],
    [new ProjectionLagError('facts', 10, 3, 2000), 503, 'projection_lag'],
  ])('maps %p to %i %s', (error, status, code) => {
    const mapped = toHttpError(error);
    expect(mapped.status).toBe(status);
    expect(mapped.body).toMatchObject({ error: code, message: error.message });
    expect(mapped.unexpected).toBeFalsy();
  });

  it('names the memory that holds the slot a restore asked for (409 slot_taken)', () => {
    expect(toHttpError(new SlotTakenError('m1', 'm2', '2026-03-01T00:00:00.000Z'))).toMatchObject({
      status: 409,
      body: { error: 'slot_taken', message: expect.stringContaining('memory m2 holds its slot'), heldBy: 'm2' },
    });
  });

  it('carries the field issues of invalid input', () => {
    expect(toHttpError(new InvalidInputError([{ path: 'validFrom', message: 'not a date' }])).body.issues).toEqual([{ path: 'validFrom', message: 'not a date' }]);
  });

  it('answers a database that cannot do it now with 503 and its reason, never 500', () => {
    const cut = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(toHttpError(cut)).toMatchObject({ status: 503, body: { error: 'database_unavailable' }, headers: { 'Retry-After': '1' } });
    expect(toHttpError(cut).unexpected).toBeFalsy();
    expect(toHttpError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toMatchObject({ status: 503, body: { error: 'database_timeout' } });
    // A database error that will not pass by waiting is still a bug, logged.
    expect(toHttpError(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toMatchObject({ status: 500, unexpected: true });
  });

  it('asks a lagging reader to retry', () => {
    expect(toHttpError(new ProjectionLagError('facts', 10, 3, 2000)).headers).toEqual({ 'Retry-After': '1' });
  });

  it('turns a malformed body into invalid_input, and an unknown route into not_found', () => {
    expect(toHttpError(new BadRequestException('Unexpected end of JSON input'))).toMatchObject({ status: 400, body: { error: 'invalid_input', issues: [{ path: '' }] } });
    expect(toHttpError(new NotFoundException('Cannot GET /x'))).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  it('keeps body-parser client errors, such as a body too large', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), { status: 413, expose: true, type: 'entity.too.large' });
    expect(toHttpError(tooLarge)).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
  });

  it('hides anything else behind a generic 500 and marks it for the log', () => {
    const mapped = toHttpError(new Error('connection string postgres://secret@db'));
    expect(mapped).toMatchObject({ status: 500, unexpected: true, body: { error: 'internal' } });
    expect(JSON.stringify(mapped.body)).not.toContain('secret');
  });
});
