// The ImageModel port over an OpenAI-compatible images endpoint: `POST /images/edits` (multipart:
// `image[]` files and a `prompt`), which OpenAI (gpt-image-1, dall-e-2), LocalAI and most
// self-hosted servers answer with `b64_json`. The offline composition goes first as the
// reference, the shopper's photo second for try-on. `response_format: b64_json` is sent to dall-e
// models only (gpt-image models refuse the parameter and always answer in base64); an answer with
// a URL instead of bytes is a failure, not something this service fetches. No retries: a look is
// drawn while the shopper waits, and the offline picture is the fallback.
import OpenAI, { toFile } from 'openai';
import { ImageModelFailed, type ImageModel, type ImageModelRequest } from './image-model.js';

export interface OpenAiImageModelOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  /** One call; the caller's signal may end it sooner. */
  timeoutMs: number;
}

/** Base64 characters of an answer's picture before it is refused (about 24 MB of bytes). */
const MAX_B64_CHARS = 32 * 1024 * 1024;

export function createOpenAiImageModel(options: OpenAiImageModelOptions): ImageModel {
  const client = new OpenAI({ apiKey: options.apiKey ?? 'unset', baseURL: options.baseURL, maxRetries: 0, timeout: options.timeoutMs });
  const failed = (why: string) => new ImageModelFailed(redact(`${options.model}: ${why}`, options.apiKey));
  return {
    name: options.model,
    async draw(request: ImageModelRequest): Promise<Buffer> {
      const files = await Promise.all(request.images.map((image) => toFile(image.bytes, image.name, { type: image.contentType })));
      let answer;
      try {
        answer = await client.images.edit(
          {
            model: options.model,
            image: files.length === 1 ? files[0]! : files,
            prompt: request.prompt,
            n: 1,
            ...(options.model.startsWith('dall-e') ? { response_format: 'b64_json' as const } : {}),
          },
          { signal: request.signal, timeout: options.timeoutMs },
        );
      } catch (error) {
        if (request.signal.aborted) throw failed(request.signal.reason instanceof Error ? request.signal.reason.message : 'stopped');
        throw failed(error instanceof Error ? error.message : String(error));
      }
      const b64 = answer?.data?.[0]?.b64_json;
      if (typeof b64 !== 'string' || !b64.length) throw failed('the answer has no b64_json picture');
      if (b64.length > MAX_B64_CHARS) throw failed('the answer\'s picture is too large');
      return Buffer.from(b64, 'base64');
    },
  };
}

function redact(message: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= 4 ? message.split(apiKey).join('[redacted]') : message;
}
