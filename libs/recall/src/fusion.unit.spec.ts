import { cosineSimilarity, speakerLabel } from '@factledger/embeddings';
import {
  asks,
  DEFAULT_THRESHOLDS,
  DEFAULT_WEIGHTS,
  fuse,
  maximalMarginalRelevance,
  mergeByBest,
  namesSpeaker,
  neighbourContext,
  speakerOfQuery,
  type Ranked,
  relevance,
  relevantOf,
  semanticCosine,
} from './fusion';

const r = (memoryId: string, over: Partial<Ranked & { text: string }> = {}): Ranked & { text: string } => ({
  memoryId,
  cosine: 0.3,
  passageCosine: null,
  bm25: 0,
  coverage: 0,
  keyCoverage: 0,
  trigram: 0,
  context: 0,
  namedSpeaker: false,
  text: `text of ${memoryId}`,
  ...over,
});

describe('fusion: lexical and semantic evidence weighed', () => {
  it('scales each kind of evidence to the candidates before weighing them, so neither wins by its units', () => {
    // BM25 runs to tens, cosine stays under one: scaled, the best of each ties at equal weights.
    const fused = fuse([r('lexical', { bm25: 12, cosine: 0.2 }), r('semantic', { bm25: 0, cosine: 0.8 }), r('both', { bm25: 9, cosine: 0.7 })], DEFAULT_WEIGHTS, false);
    expect(fused.get('lexical')!.lexical).toBe(1);
    expect(fused.get('semantic')!.semantic).toBe(1);
    expect(fused.get('lexical')!.fused).toBeCloseTo(fused.get('semantic')!.fused, 12);
    expect(fused.get('both')!.fused).toBeGreaterThan(fused.get('lexical')!.fused);
    // All weight on lexical evidence: the order is BM25's.
    const lexicalOnly = fuse([r('a', { bm25: 3, cosine: 0.9 }), r('b', { bm25: 4, cosine: 0.1 })], { ...DEFAULT_WEIGHTS, lexical: 1 }, false);
    expect(lexicalOnly.get('b')!.fused).toBeGreaterThan(lexicalOnly.get('a')!.fused);
  });

  it('raises a memory whose speaker the query names, on both kinds of evidence', () => {
    const plain = fuse([r('x', { bm25: 5, cosine: 0.5 }), r('y', { bm25: 5, cosine: 0.5, namedSpeaker: true }), r('z', { bm25: 10, cosine: 0.3 })], DEFAULT_WEIGHTS, false);
    expect(plain.get('y')!.fused).toBeGreaterThan(plain.get('x')!.fused);
    expect(plain.get('y')!.lexical).toBe(1); // 5 × 2 = the best
  });

  it('counts what neighbouring turns lend as lexical evidence, and trigrams only where they were searched', () => {
    const fused = fuse([r('reply', { bm25: 0, context: 6 }), r('other', { bm25: 6 }), r('korean', { trigram: 0.8 })], DEFAULT_WEIGHTS, false);
    expect(fused.get('reply')!.lexical).toBe(fused.get('other')!.lexical);
    expect(fused.get('korean')!.lexical).toBe(0);
    expect(fuse([r('korean', { trigram: 0.8 })], DEFAULT_WEIGHTS, true).get('korean')!.lexical).toBe(0.8);
  });

  it('merges sub-queries by their best: a version that touches both is worth no more than one that answers one outright', () => {
    const a = new Map([
      ['both', { lexical: 0, semantic: 0, fused: 0.6 }],
      ['a', { lexical: 0, semantic: 0, fused: 1 }],
    ]);
    const b = new Map([
      ['both', { lexical: 0, semantic: 0, fused: 0.7 }],
      ['b', { lexical: 0, semantic: 0, fused: 0.9 }],
    ]);
    const merged = mergeByBest([
      { fused: a, kept: new Set(['both', 'a']) },
      { fused: b, kept: new Set(['both', 'b']) },
    ]);
    expect(merged.get('a')).toBe(1);
    expect(merged.get('b')).toBe(0.9);
    // A sum would put "both" (0.6 + 0.7) first.
    expect(merged.get('both')).toBe(0.7);
    // Only where a part kept it: not relevant to a part, not scored by it.
    expect(mergeByBest([{ fused: a, kept: new Set(['a']) }]).has('both')).toBe(false);
  });
});

describe('neighbouring turns and speakers', () => {
  it('lends a turn part of the BM25 of the turns beside it, more when the turn before asked something', () => {
    const found = new Map([
      ['q', { bm25: 10, text: 'Caroline: How long have you been married?' }],
      ['a', { bm25: 0, text: 'Melanie: Five years already!' }],
      ['s', { bm25: 10, text: 'Melanie: We married in the spring.' }],
      ['t', { bm25: 0, text: 'Caroline: Lovely.' }],
    ]);
    // prettier-ignore
    const adjacency = { before: new Map([['a', 'q'], ['t', 's']]), after: new Map([['q', 'a'], ['s', 't']]) };
    const lent = neighbourContext(found, adjacency, DEFAULT_WEIGHTS);
    expect(lent.get('a')).toBeCloseTo(10 * DEFAULT_WEIGHTS.afterQuestion, 12);
    expect(lent.get('t')).toBeCloseTo(10 * DEFAULT_WEIGHTS.before, 12);
    expect(lent.get('q')).toBeCloseTo(0, 12); // its reply has no BM25 of its own
    expect(lent.get('s')).toBe(0);
  });

  it('tells a turn that asks from one that shares a photo with a question in its caption', () => {
    expect(asks('Did you go?')).toBe(true);
    expect(asks('Look! [shares a photo: what is this?]')).toBe(false);
    expect(asks('어디 살아？')).toBe(true);
  });

  it('reads the speaker a transcript line names, and whether a query names them', () => {
    expect(speakerLabel('Caroline: I went to a support group.')).toBe('Caroline');
    expect(speakerLabel('Mary Ann Lee: hi')).toBe('Mary Ann Lee');
    expect(speakerLabel('The port is 8080: see the docs.')).toBeNull();
    expect(speakerLabel('note: lowercase labels are not names')).toBeNull();
    expect(namesSpeaker("What is Caroline's identity?", 'Caroline')).toBe(true);
    expect(namesSpeaker('What did Carolinea say?', 'Caroline')).toBe(false);
    expect(namesSpeaker('anything', null)).toBe(false);
  });

  it("takes a question in the first person to speak of what the user said, not of the assistant's replies", () => {
    const asksOfSelf = speakerOfQuery('Have I ever set up the staging database?');
    expect(asksOfSelf({ text: 'user: I set up the staging database on Monday.', speaker: 'user' })).toBe(true);
    expect(asksOfSelf({ text: 'User: I set up the staging database on Monday.', speaker: 'user' })).toBe(true);
    expect(asksOfSelf({ text: 'I set up the staging database on Monday.', speaker: 'user' })).toBe(true);
    // The agent's turn, by its label or its recorded speaker, and a turn that opens with another name.
    expect(asksOfSelf({ text: 'assistant: To set up the staging database, run the migrations.', speaker: 'user' })).toBe(false);
    expect(asksOfSelf({ text: 'AI: To set up the staging database, run the migrations.', speaker: 'user' })).toBe(false);
    expect(asksOfSelf({ text: 'To set up the staging database, run the migrations.', speaker: 'assistant' })).toBe(false);
    expect(asksOfSelf({ text: 'Caroline: I set up the staging database.', speaker: 'user' })).toBe(false);
    expect(speakerOfQuery('Has the staging database been set up?')({ text: 'user: I set it up.', speaker: 'user' })).toBe(false);
    expect(speakerOfQuery('What did Caroline paint?')({ text: 'Caroline: I painted a lake.', speaker: 'user' })).toBe(true);
  });
});

describe('relevance', () => {
  it('admits on meaning, on stems that cover part of the query with some meaning, or on trigrams, and says which', () => {
    expect(relevance(r('a', { cosine: 0.45 }), DEFAULT_THRESHOLDS)).toMatch(/^cosine 0.450/);
    expect(relevance(r('a2', { cosine: 0.35 }), DEFAULT_THRESHOLDS)).toBeNull();
    expect(relevance(r('b', { cosine: 0.25, coverage: 0.4, bm25: 3 }), DEFAULT_THRESHOLDS)).toMatch(/^stems matched \(40% of the query's IDF, BM25 3.00\)/);
    expect(relevance(r('c', { cosine: 0.1, coverage: 0.9, bm25: 3 }), DEFAULT_THRESHOLDS)).toBeNull(); // a shared word is not relevance
    expect(relevance(r('d', { cosine: 0.25, coverage: 0.05, bm25: 1 }), DEFAULT_THRESHOLDS)).toBeNull(); // a sliver of the query
    expect(relevance(r('e', { cosine: null, coverage: 0.5, bm25: 2 }), DEFAULT_THRESHOLDS)).toMatch(/not embedded yet/);
    expect(relevance(r('f', { cosine: 0.2, trigram: 0.7 }), DEFAULT_THRESHOLDS)).toMatch(/^trigram similarity/);
    expect(relevance(r('g', { cosine: 0.2, trigram: 0.2 }), DEFAULT_THRESHOLDS)).toBeNull();
    // A question that names a memory's key asks for it, however far its words are.
    expect(relevance(r('h', { cosine: 0.1, coverage: 0.3, keyCoverage: 0.3, bm25: 2 }), DEFAULT_THRESHOLDS)).toMatch(/^the query names its key \(30%/);
    expect(relevance(r('i', { cosine: 0.1, coverage: 0.3, keyCoverage: 0.1, bm25: 2 }), DEFAULT_THRESHOLDS)).toBeNull();
    // A long turn whose one sentence means what the query asks, though its whole does not.
    expect(relevance(r('j', { cosine: 0.3, passageCosine: 0.5 }), DEFAULT_THRESHOLDS)).toMatch(/^a passage's cosine 0.500 ≥ 0.45/);
    expect(relevance(r('k', { cosine: 0.3, passageCosine: 0.4 }), DEFAULT_THRESHOLDS)).toBeNull();
  });

  it("counts the share of a passage's lead over its whole that the weight says, never less than the whole", () => {
    expect(semanticCosine({ cosine: 0.3, passageCosine: 0.7 }, 0.5)).toBeCloseTo(0.5);
    expect(semanticCosine({ cosine: 0.3, passageCosine: 0.7 }, 1)).toBeCloseTo(0.7);
    expect(semanticCosine({ cosine: 0.3, passageCosine: 0.7 }, 0)).toBeCloseTo(0.3);
    expect(semanticCosine({ cosine: 0.6, passageCosine: 0.4 }, 1)).toBeCloseTo(0.6);
    expect(semanticCosine({ cosine: 0.6, passageCosine: null }, 1)).toBeCloseTo(0.6);
    expect(semanticCosine({ cosine: null, passageCosine: 0.9 }, 1)).toBeNull();
    // In fusion, the passage lifts a long turn above a whole that matches a little better.
    const fused = fuse([r('long', { cosine: 0.35, passageCosine: 0.75 }), r('short', { cosine: 0.45 }), r('far', { cosine: 0.1 })], DEFAULT_WEIGHTS, false);
    expect(fused.get('long')!.semantic).toBeGreaterThan(fused.get('short')!.semantic);
  });

  it('admits the reply to a relevant turn that asked something, and only that', () => {
    const question = r('q', { cosine: 0.6, text: 'Melanie: When did you go to the pride parade?' });
    const reply = r('a', { cosine: 0.1, text: 'Caroline: Last Tuesday!' });
    const statement = r('s', { cosine: 0.6, text: 'Melanie: I went to the parade.' });
    const after = r('t', { cosine: 0.1, text: 'Caroline: Cool.' });
    // prettier-ignore
    const adjacency = { before: new Map([['a', 'q'], ['t', 's']]), after: new Map([['q', 'a'], ['s', 't']]) };
    const relevant = relevantOf([question, reply, statement, after], adjacency, DEFAULT_THRESHOLDS);
    expect(relevant.get('a')).toBe('reply to a relevant question (q)');
    expect(relevant.has('t')).toBe(false);
  });
});

describe('diversity', () => {
  type V = { id: string; v: number[] | null };
  const similarity = (a: V, b: V): number | null => (a.v && b.v ? cosineSimilarity(Float32Array.from(a.v), Float32Array.from(b.v)) : null);

  it('demotes a near-duplicate below a less relevant but different item', () => {
    const items = [
      { item: { id: 'first', v: [1, 0, 0] }, score: 1 },
      { item: { id: 'twin', v: [0.99, 0.01, 0] }, score: 0.95 },
      { item: { id: 'other', v: [0, 1, 0] }, score: 0.8 },
    ];
    expect(maximalMarginalRelevance(items, similarity).map((x) => x.item.id)).toEqual(['first', 'other', 'twin']);
    // At λ = 1 relevance alone decides.
    expect(maximalMarginalRelevance(items, similarity, 1).map((x) => x.item.id)).toEqual(['first', 'twin', 'other']);
  });

  it('treats an item without an embedding as unlike every other', () => {
    const items = [
      { item: { id: 'first', v: [1, 0, 0] }, score: 1 },
      { item: { id: 'fresh', v: null }, score: 0.9 },
      { item: { id: 'twin', v: [1, 0, 0] }, score: 0.95 },
    ];
    const taken = maximalMarginalRelevance(items, similarity);
    expect(taken.map((x) => x.item.id)).toEqual(['first', 'fresh', 'twin']);
    expect(taken.find((x) => x.item.id === 'fresh')!.redundancy).toBe(0);
  });

  it('raises an item for each one already taken under its heading (session cohesion), and only with a factor', () => {
    type D = { id: string; day: string };
    const items = [
      { item: { id: 'best', day: 'monday' }, score: 1 },
      { item: { id: 'elsewhere', day: 'friday' }, score: 0.95 },
      { item: { id: 'same day', day: 'monday' }, score: 0.9 },
    ];
    const none = (): number | null => null;
    const groupOf = (d: D): string => d.day;
    expect(maximalMarginalRelevance(items, none, 1).map((x) => x.item.id)).toEqual(['best', 'elsewhere', 'same day']);
    const taken = maximalMarginalRelevance(items, none, 1, { groupOf, factor: 0.1 });
    expect(taken.map((x) => [x.item.id, x.sameGroup])).toEqual([
      ['best', 0],
      ['same day', 1],
      ['elsewhere', 0],
    ]);
    // Too small a factor to overturn the gap; 0 changes nothing.
    expect(maximalMarginalRelevance(items, none, 1, { groupOf, factor: 0.02 }).map((x) => x.item.id)).toEqual(['best', 'elsewhere', 'same day']);
    expect(maximalMarginalRelevance(items, none, 1, { groupOf, factor: 0 }).map((x) => x.item.id)).toEqual(['best', 'elsewhere', 'same day']);
  });
});
