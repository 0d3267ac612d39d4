// The model ports of DESIGN.md: what labels a product and what embeds search text. Offline
// implementations are the embedded default; OpenAI-compatible ones are used when configured.
import type { Listing } from '../../domain/catalogue/product-input.js';
import type { StoreAudience } from '../../domain/catalogue/store-audience.js';
import type { Labels, TargetGender } from '../../domain/catalogue/vocabulary.js';

/** One product photo after normalisation: the stored JPEG and a small RGB raster to read colours from. */
export interface ProductPhoto {
  jpeg: Buffer;
  /** Downscaled (at most 64 px a side), 3 channels, row-major. */
  pixels: { data: Uint8Array; width: number; height: number };
}

export interface LabelRequest {
  listing: Listing;
  /** The item's photos in supplied order (those that could be fetched); may be empty. */
  photos: ProductPhoto[];
  /** The dataset's `config.targetGender`: when set, the answer's gender is this. */
  targetGender: TargetGender | null;
  /**
   * What the dataset's whole catalogue says about its audience (domain/catalogue/store-audience.ts);
   * a listing whose words name no gender takes it from there. Absent: the listing alone decides.
   */
  store?: StoreAudience | null;
}

export interface Labeller {
  /** For logs and the item's history, e.g. `offline` or the model name. */
  readonly name: string;
  label(request: LabelRequest): Promise<Labels>;
}

export interface Embedder {
  readonly name: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order. */
  embed(texts: string[]): Promise<number[][]>;
}
