import type { MemoryRow } from '@factledger/projections';
import { FrameCache } from './frame-cache';

const row = (memoryId: string): MemoryRow => ({ memoryId, text: `text of ${memoryId}` }) as MemoryRow;

describe('FrameCache', () => {
  it('keeps the look-ups of each tenant apart and drops the least recently used first', () => {
    const cache = new FrameCache(2);
    cache.put('t1', 'The build cache lives', [row('a')]);
    cache.put('t2', 'The build cache lives', [row('b')]);
    expect(cache.get('t1', 'The build cache lives')?.map((r) => r.memoryId)).toEqual(['a']);
    cache.put('t1', 'The owner of repo-1 is', [row('c')]);
    // t1's first look-up was read after t2's was put, so t2's went.
    expect(cache.get('t2', 'The build cache lives')).toBeUndefined();
    expect(cache.get('t1', 'The build cache lives')?.map((r) => r.memoryId)).toEqual(['a']);
    expect(cache.size).toBe(2);
  });

  it('forgets every look-up that held an erased memory, in that tenant only', () => {
    const cache = new FrameCache();
    cache.put('t1', 'stem one', [row('a'), row('b')]);
    cache.put('t1', 'stem two', [row('c')]);
    cache.put('t2', 'stem one', [row('a')]);
    cache.forget('t1', ['b']);
    expect(cache.get('t1', 'stem one')).toBeUndefined();
    expect(cache.get('t1', 'stem two')?.map((r) => r.memoryId)).toEqual(['c']);
    expect(cache.get('t2', 'stem one')?.map((r) => r.memoryId)).toEqual(['a']);
  });
});
