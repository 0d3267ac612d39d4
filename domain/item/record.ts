// Document 1's DatasetItem as the API returns it, built from what the ingest pipeline recorded.
// Embeddings, internal ids and lookup keys never appear here.
import type { ListingVariant } from '../catalogue/product-input.js';
import type { Feature, Labels } from '../catalogue/vocabulary.js';
import type { ItemImage, ItemProcessed, ItemStatus } from './events.js';

export interface DatasetItemBody {
  version: number;
  metadata: {
    description: string;
    gender: Labels['gender'];
    age_group: Labels['age_group'];
    color_rgb: [number, number, number];
    color_family: Labels['color_family'];
    colors: string[];
    pattern: Labels['pattern'];
    material: Labels['material'];
    fit: Labels['fit'];
    slot: Labels['slot'];
    family: string;
    features: Feature[];
    featureKeys: string[];
    taxonomyVersion: number | null;
    searchTextVersion: number | null;
  };
  product: {
    sku: string;
    url: string;
    name: string;
    description: string;
    careInstructions: string;
    price: number;
    currency: string;
    market: string | null;
    model: { height: string; size: string };
    setItems: string[];
    recommendedItems: string[];
    assets: { images: ItemImage[]; generated: { thumbnail: { url: string | null }; segmented: Array<{ sourceImageId: string; uploaded: { id: string; key: string } }> } };
    variants: ListingVariant[];
  };
}

export interface DatasetItem extends DatasetItemBody {
  itemId: string;
  datasetId: string;
  organizationId: string;
  status: ItemStatus;
}

export function datasetItemBody(processed: Omit<ItemProcessed['data'], 'status' | 'at' | 'queueVersion'>): DatasetItemBody {
  const { listing, labels } = processed;
  return {
    version: processed.pipelineVersion,
    metadata: {
      description: processed.searchText,
      gender: labels.gender,
      age_group: labels.age_group,
      color_rgb: labels.color_rgb,
      color_family: labels.color_family,
      colors: labels.colors,
      pattern: labels.pattern,
      material: labels.material,
      fit: labels.fit,
      slot: labels.slot,
      family: labels.family,
      features: labels.features,
      featureKeys: labels.featureKeys,
      taxonomyVersion: labels.taxonomyVersion,
      searchTextVersion: processed.searchTextVersion,
    },
    product: {
      sku: listing.sku,
      url: listing.url,
      name: listing.name,
      description: listing.description,
      careInstructions: '',
      price: listing.price,
      currency: processed.currency,
      market: null,
      model: listing.model,
      setItems: [],
      recommendedItems: [],
      // Generative assets are off platform-wide (document 1).
      assets: { images: processed.images, generated: { thumbnail: { url: null }, segmented: [] } },
      variants: listing.variants,
    },
  };
}

/**
 * What a search result shows of an item before its offer in the shopper's market is added: the
 * body without the stored variants (the search read model keeps them beside it, and the offer's
 * variants, price and currency replace the stored ones in every answer).
 */
export type AnswerBody = Omit<DatasetItemBody, 'product'> & { product: Omit<DatasetItemBody['product'], 'variants'> };

export function answerBody(processed: Omit<ItemProcessed['data'], 'status' | 'at' | 'queueVersion'>): AnswerBody {
  const { product, ...rest } = datasetItemBody(processed);
  const { variants: _variants, ...shown } = product;
  return { ...rest, product: shown };
}
