// The words of a listing as the offline labeller reads them, field by field and weighted: the
// title and product type name the product; tags, options and the description only hint. The
// description's HTML is stripped and only its opening is read.
import type { Listing } from '../../../domain/catalogue/product-input.js';
import { words } from '../../../domain/catalogue/taxonomy/index.js';
import { stripHtml } from '../../../domain/html.js';

export type FieldKind = 'title' | 'type' | 'tags' | 'options' | 'description';

export interface TextField {
  kind: FieldKind;
  weight: number;
  /** Runs of words between separators (" - ", "|", brackets, tags); a cue never spans two. */
  segments: string[][];
}

export const FIELD_WEIGHTS: Readonly<Record<FieldKind, number>> = { title: 4, type: 2.5, tags: 1, options: 0.6, description: 0.4 };
const DESCRIPTION_WORDS = 160;

export { stripHtml };

const SEPARATORS = /\s[-–—|/]\s|[|()[\]{}"“”«»:;,]|\s[-–—]|[-–—]\s|\n/;

export function segmentsOf(text: string): string[][] {
  return text
    .split(SEPARATORS)
    .map(words)
    .filter((segment) => segment.length > 0);
}

export function listingFields(listing: Listing): TextField[] {
  const description = stripHtml(listing.description ?? '');
  let budget = DESCRIPTION_WORDS;
  const descriptionSegments: string[][] = [];
  for (const segment of segmentsOf(description)) {
    if (budget <= 0) break;
    descriptionSegments.push(segment.slice(0, budget));
    budget -= segment.length;
  }
  const optionText = (listing.options ?? []).flatMap((o) => [o.name, ...o.values.slice(0, 12)]);
  return [
    { kind: 'title', weight: FIELD_WEIGHTS.title, segments: segmentsOf(listing.name ?? '') },
    { kind: 'type', weight: FIELD_WEIGHTS.type, segments: segmentsOf(listing.productType ?? '') },
    { kind: 'tags', weight: FIELD_WEIGHTS.tags, segments: (listing.tags ?? []).slice(0, 40).flatMap(segmentsOf) },
    { kind: 'options', weight: FIELD_WEIGHTS.options, segments: optionText.flatMap(segmentsOf) },
    { kind: 'description', weight: FIELD_WEIGHTS.description, segments: descriptionSegments },
  ];
}
