import { ExpectedVersionConflict } from '@factledger/store';
import { decideAgainOnConflict, MAX_CONFLICT_RETRIES } from './decide-again';

describe('decideAgainOnConflict', () => {
  const conflict = () => new ExpectedVersionConflict('s', '1', 2, { version: 2, events: [] });

  it('decides again after a conflict, handing the refusal over first, and returns what the attempt that landed returned', async () => {
    const seen: number[] = [];
    const refusals: ExpectedVersionConflict[] = [];
    const result = await decideAgainOnConflict(
      async (n) => {
        seen.push(n);
        if (n < 2) throw conflict();
        return 'landed';
      },
      (c) => refusals.push(c),
    );
    expect(result).toBe('landed');
    expect(seen).toEqual([0, 1, 2]);
    expect(refusals.map((c) => c.actual)).toEqual([2, 2]);
  });

  it('gives up after MAX_CONFLICT_RETRIES more attempts with the last conflict, and never retries another error', async () => {
    let attempts = 0;
    await expect(
      decideAgainOnConflict(async () => {
        attempts++;
        throw conflict();
      }),
    ).rejects.toBeInstanceOf(ExpectedVersionConflict);
    expect(attempts).toBe(MAX_CONFLICT_RETRIES + 1);
    attempts = 0;
    await expect(
      decideAgainOnConflict(async () => {
        attempts++;
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(attempts).toBe(1);
  });
});
