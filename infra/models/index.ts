// Which models the service runs, from configuration (document 3 §1): the built-in offline ones by
// default; OpenAI-compatible ones when a model is named for the job.
import type { Config } from '../config/config.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { createOfflineLabeller } from './offline-labeller.js';
import { createOpenAiEmbedder } from './openai-embedder.js';
import { createOpenAiLabeller } from './openai-labeller.js';
import type { Embedder, Labeller } from './port.js';
import type { ChatModel } from './chat.js';
import { createOfflineStylist } from './offline-stylist.js';
import { createOpenAiChatModel } from './openai-chat.js';

export interface Models {
  labeller: Labeller;
  embedder: Embedder;
}

/** The agent's model: the configured OpenAI-compatible chat model, else the built-in offline stylist. */
export function openChatModel(config: Config): ChatModel {
  const openai = config.openai;
  if (!openai?.chatModel) return createOfflineStylist();
  return createOpenAiChatModel({
    model: openai.chatModel,
    apiKey: openai.apiKey,
    baseURL: openai.baseUrl,
    timeoutMs: config.agent.chatTimeoutMs,
    maxRetries: config.agent.chatRetries,
    reasoning: config.agent.chatReasoning,
  });
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
