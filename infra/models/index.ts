// Which models the service runs, from configuration (document 3 §1): the built-in offline ones by
// default; OpenAI-compatible ones when a model is named for the job.
import type { Config } from '../config/config.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { createOfflineLabeller } from './offline-labeller.js';
import { createOpenAiEmbedder } from './openai-embedder.js';
import { createOpenAiLabeller } from './openai-labeller.js';
import type { Embedder, Labeller } from './port.js';

export interface Models {
  labeller: Labeller;
  embedder: Embedder;
}

/** Vectors of OpenAI's text-embedding-3 models can be shortened to this; one size keeps search simple. */
const OPENAI_EMBEDDING_DIMENSIONS = 512;

export function openModels(config: Config): Models {
  const openai = config.openai;
  const labeller = openai?.visionModel ? createOpenAiLabeller({ model: openai.visionModel, apiKey: openai.apiKey, baseURL: openai.baseUrl }) : createOfflineLabeller();
  const embedder = openai?.embeddingModel
    ? createOpenAiEmbedder({ model: openai.embeddingModel, dimensions: OPENAI_EMBEDDING_DIMENSIONS, apiKey: openai.apiKey, baseURL: openai.baseUrl, sendDimensions: openai.embeddingModel.startsWith('text-embedding-3') })
    : createHashedEmbedder();
  return { labeller, embedder };
}
