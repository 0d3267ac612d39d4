// The ImageModel port: a picture drawn from a prompt and reference pictures (the offline look,
// and for try-on the shopper's photo). Adapter: openai-images.ts (any OpenAI-compatible images
// endpoint). No offline adapter: without a model the offline composition is the picture.

export interface ImageReference {
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  /** A file name for the multipart body ("look.jpg"). */
  name: string;
}

export interface ImageModelRequest {
  prompt: string;
  images: ImageReference[];
  /** The caller's deadline and the shopper leaving: the call stops at once. */
  signal: AbortSignal;
}

export interface ImageModel {
  readonly name: string;
  /** The drawn picture's bytes (any format sharp reads); throws ImageModelFailed. */
  draw(request: ImageModelRequest): Promise<Buffer>;
}

/** The model could not draw: the reason is for logs and the answer's `fallbackReason`, never with the API key. */
export class ImageModelFailed extends Error {
  override name = 'ImageModelFailed';
}
