import { bm25Scores, reciprocalRankOrder } from './baselines';

describe('the BM25 and RRF baselines', () => {
  const docs = [
    ['the', 'cat', 'sat'],
    ['the', 'dog', 'sat', 'down'],
    ['the', 'kayak', 'club'],
  ];

  it('scores by Okapi BM25: a rare word outweighs a common one, a word absent scores nothing', () => {
    const scores = bm25Scores(docs, ['the', 'kayak']);
    expect(scores[2]).toBeGreaterThan(scores[0]!);
    expect(bm25Scores(docs, ['zebra'])).toEqual([0, 0, 0]);
    // idf of a word in every doc is ln(1 + 0.5 / 3.5); one in a single doc, ln(1 + 2.5 / 1.5).
    const [onlyThe] = bm25Scores([['the'], ['the'], ['the']], ['the']);
    expect(onlyThe).toBeCloseTo(Math.log(1 + 0.5 / 3.5), 10);
  });

  it('fuses rankings by reciprocal rank: agreement beats one first place', () => {
    expect(
      reciprocalRankOrder([
        [0, 1, 2],
        [2, 1, 0],
        [1, 2, 0],
      ]),
    ).toEqual([1, 2, 0]);
    expect(reciprocalRankOrder([[3, 1]], 60)).toEqual([3, 1]);
  });
});
