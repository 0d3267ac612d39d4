// Item and product responses link each stored photo through the image route (document 1:
// "The image URL is `{base_url}/v1/image/{key}`"): every StoredImage gets its absolute `url`. Pure:
// the API and the agent worker both link what they answer with.
import type { DatasetItemBody } from './record.js';

export interface ImageLinks {
  /** BASE_URL without a trailing slash. */
  baseUrl: string;
}

export const imageUrl = (baseUrl: string, key: string): string => `${baseUrl}/v1/image/${key}`;

type Assets = DatasetItemBody['product']['assets'];
type StoredImage = { id: string; key: string };
type LinkedImage = StoredImage & { url: string };

export interface LinkedAssets {
  images: Array<Omit<Assets['images'][number], 'uploaded'> & { uploaded: LinkedImage }>;
  generated: { thumbnail: { url: string | null }; segmented: Array<{ sourceImageId: string; uploaded: LinkedImage }> };
}

/** The product with `url` beside every `uploaded.key` of its assets. */
export function withImageUrls<P extends { assets: Assets }>(product: P, baseUrl: string): Omit<P, 'assets'> & { assets: LinkedAssets } {
  const link = (uploaded: StoredImage) => ({ ...uploaded, url: imageUrl(baseUrl, uploaded.key) });
  const { assets } = product;
  return {
    ...product,
    assets: {
      ...assets,
      images: assets.images.map((image) => ({ ...image, uploaded: link(image.uploaded) })),
      generated: { ...assets.generated, segmented: assets.generated.segmented.map((s) => ({ ...s, uploaded: link(s.uploaded) })) },
    },
  };
}

/** An item (or search result) with its product's photos linked. */
export const linkItem = <T extends { product: { assets: Assets } }>(item: T, baseUrl: string) => ({ ...item, product: withImageUrls(item.product, baseUrl) });
