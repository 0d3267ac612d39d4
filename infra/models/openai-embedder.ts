// The Embedder over OpenAI's (or any compatible server's) embeddings endpoint: texts go in
// batches, answers are put back in input order by their index and scaled to unit length.
import OpenAI from 'openai';
import type { Embedder } from './port.js';

export interface OpenAiEmbedderOptions {
  model: string;
  /** Length of the vectors; sent as `dimensions` when the model can shorten them. */
  dimensions: number;
  apiKey?: string;
  baseURL?: string;
  /** Texts per request; OpenAI accepts up to 2,048 inputs. */
  batchSize?: number;
  /** A ready client (shared with the labeller); apiKey and baseURL are then ignored. */
  client?: OpenAI;
  /** Send `dimensions` with each request (models before text-embedding-3 reject it). */
  sendDimensions?: boolean;
}

export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const client = options.client ?? new OpenAI({ apiKey: options.apiKey ?? 'unset', baseURL: options.baseURL, maxRetries: 2 });
  const batchSize = Math.max(1, options.batchSize ?? 256);
  return {
    name: `openai:${options.model}`,
    dimensions: options.dimensions,
    async embed(texts) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize).map((text) => text || ' ');
        const response = await client.embeddings.create({
          model: options.model,
          input: batch,
          encoding_format: 'float',
          ...(options.sendDimensions === false ? {} : { dimensions: options.dimensions }),
        });
        const ordered = [...response.data].sort((a, b) => a.index - b.index);
        if (ordered.length !== batch.length) throw new Error(`embeddings: ${ordered.length} vectors for ${batch.length} texts`);
        for (const item of ordered) {
          if (item.embedding.length !== options.dimensions) throw new Error(`embeddings: ${item.embedding.length} dimensions, expected ${options.dimensions}`);
          vectors.push(unit(item.embedding));
        }
      }
      return vectors;
    },
  };
}

function unit(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  return norm > 0 ? vector.map((v) => v / norm) : vector;
}
