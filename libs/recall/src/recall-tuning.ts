/**
 * Recall's tuning as a user sets it (FACTLEDGER_RECALL, or `factledger eval --recall`): a JSON
 * object whose every field is optional and falls back to the defaults, validated once at start-up.
 * `{"weights": {"lexical": 0.6}, "lexical": {"b": 0.5}, "render": {"sources": "always"}}`.
 */
import { InvalidInputError } from '@factledger/domain';
import { z } from 'zod';
import { FRAME_TAG } from './context-render';
import type { RecallOptions } from './recall';

const share = z.number().min(0).max(1);
const count = (max: number) => z.number().int().min(0).max(max);

export const recallTuningSchema = z
  .object({
    thresholds: z.object({ cosine: share, passageCosine: share, lexicalCosine: share, coverage: share, keyCoverage: share, trigram: share }).partial().strict(),
    weights: z
      .object({
        lexical: share,
        before: z.number().min(0).max(2),
        afterQuestion: z.number().min(0).max(2),
        after: z.number().min(0).max(2),
        speakerLexical: z.number().min(1).max(10),
        speakerCosine: share,
        diversity: share,
        passage: share,
        cohesion: share,
      })
      .partial()
      .strict(),
    lexical: z
      .object({ k1: z.number().min(0).max(10), b: share, scan: count(100_000).min(1), keep: count(1000).min(1), neighbourOf: count(200), neighbourGapMs: count(30 * 86_400_000) })
      .partial()
      .strict(),
    render: z
      .object({
        sources: z.enum(['speaking', 'always', 'never']),
        frameTag: z.string().regex(FRAME_TAG, 'must be lower-case letters, digits and hyphens, starting with a letter (at most 40)'),
        frameText: z.string().trim().min(1).max(500),
      })
      .partial()
      .strict(),
    profileShare: share,
    freshLimit: count(100),
    poolSize: count(1000).min(1),
    detailLimit: count(1000).min(1),
  })
  .partial()
  .strict();

export type RecallTuning = z.output<typeof recallTuningSchema>;

/** The tuning from its JSON text (or an object already parsed); a typed error naming the field when it is wrong. */
export function parseRecallTuning(value: string | object | undefined, path = 'config.recall'): Omit<RecallOptions, 'addressTerms'> {
  if (value === undefined || value === '') return {};
  let raw: unknown = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch {
      throw new InvalidInputError([{ path, message: 'must be a JSON object, e.g. {"weights":{"lexical":0.6}}' }]);
    }
  }
  const parsed = recallTuningSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((i) => ({ path: [path, ...i.path.map(String)].join('.'), message: i.message })));
  return parsed.data;
}
