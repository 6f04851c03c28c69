import { beliefChanges } from './belief';

const v = (streamId: string, memoryId: string, value: string | null, text = `${streamId} ${value}`) => ({ streamId, memoryId, value, text });

describe('beliefChanges', () => {
  it('names every stream whose versions differ, with both sides, and no stream that stayed', () => {
    const before = [v('k1', 'm1', 'Berlin'), v('k2', 'm2', 'red'), v('k3', 'm3', 'French'), v('p1', 'm9', null, 'a note')];
    const after = [v('k1', 'm4', 'Lisbon'), v('k2', 'm2', 'red'), v('k3', 'm3', 'French'), v('k3', 'm5', 'German'), v('k4', 'm6', 'tea')];
    expect(beliefChanges(before, after)).toEqual([
      { streamId: 'k1', before: [before[0]], after: [after[0]] },
      { streamId: 'k3', before: [before[2]], after: [after[2], after[3]] },
      { streamId: 'k4', before: [], after: [after[4]] },
      { streamId: 'p1', before: [before[3]], after: [] },
    ]);
  });

  it('does not count the order rows came in as a change', () => {
    const rows = [v('k', 'm1', 'a'), v('k', 'm2', 'b')];
    expect(beliefChanges(rows, [...rows].reverse())).toEqual([]);
  });
});
