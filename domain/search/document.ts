// The search document of an item: which of its words go in which of the four weighted fields, and
// what a word found in each field weighs. The search read model writes the fields
// (projections/search-index.ts, as a Postgres tsvector with the `english` configuration, which
// stems document and query words alike); the search memory reads the weights back from it
// (projections/search-memory/lexicon.ts). One recipe, one table. Pure.
import { stripHtml } from '../html.js';
import type { ItemProcessed } from '../item/events.js';

/** The four fields, as tsvector weight letters, and what a word found in each weighs. */
export const DOCUMENT_FIELD_WEIGHTS: Readonly<Record<'A' | 'B' | 'C' | 'D', number>> = {
  /** Name, product type and family. */
  A: 1,
  /** Labelled attributes: slot, gender, age, colours, pattern, materials, fit, features. */
  B: 0.5,
  /** Brand and tags. */
  C: 0.2,
  /** The description's first DESCRIPTION_CHARS characters. */
  D: 0.1,
};

/** Enough of a description to find an item by a word of it; the rest only slows indexing. */
export const DESCRIPTION_CHARS = 2000;

/** The text of fields A, B, C and D of a processed item. */
export function documentFields(data: Pick<ItemProcessed['data'], 'listing' | 'labels'>): [string, string, string, string] {
  const { listing, labels } = data;
  const family = labels.family === 'other' ? '' : labels.family;
  const a = [listing.name, listing.productType, family].join(' ');
  const b = [
    labels.slot,
    labels.gender,
    labels.age_group && labels.age_group !== 'adult' ? labels.age_group : '',
    labels.color_family === 'other' ? '' : labels.color_family,
    ...labels.colors,
    labels.pattern === 'solid' || labels.pattern === 'other' ? '' : labels.pattern,
    ...labels.material,
    labels.fit ?? '',
    ...labels.features.map((feature) => feature.value),
  ].join(' ');
  const c = [listing.brand, ...listing.tags].join(' ');
  const d = stripHtml(listing.description).slice(0, DESCRIPTION_CHARS);
  return [a, b, c, d];
}
