// The text an item is embedded as for search (DatasetItemMetadata.description), recipe 2: the
// product name and type first, then the labelled attributes as short terms, at most 400
// characters. Not prose: an embedding reads terms, a shopper never sees it. Pure.
import type { Listing } from './product-input.js';
import type { Labels } from './vocabulary.js';

export const SEARCH_TEXT_VERSION = 2;
export const SEARCH_TEXT_MAX = 400;

const GENDER_WORDS: Record<Labels['gender'], string> = { mens: 'mens', womens: 'womens', unisex: 'unisex' };

export function searchText(listing: Pick<Listing, 'name' | 'productType'>, labels: Labels): string {
  const name = clean(listing.name);
  const type = clean(listing.productType);
  const head = [name, type && !name.toLowerCase().includes(type.toLowerCase()) ? type : ''].filter(Boolean).join(' | ');
  const age = labels.age_group && labels.age_group !== 'adult' ? labels.age_group : '';
  const colours = unique([labels.color_family !== 'other' ? labels.color_family : '', ...labels.colors.filter((c) => c !== labels.color_family)]);
  const parts = [
    head,
    [GENDER_WORDS[labels.gender], age, labels.slot, labels.family !== 'other' ? labels.family : ''].filter(Boolean).join(' '),
    colours.length ? `colour ${colours.join(', ')}` : '',
    labels.pattern !== 'solid' ? `${labels.pattern} pattern` : 'solid',
    labels.material.length ? labels.material.join(', ') : '',
    labels.fit ? `${labels.fit} fit` : '',
    labels.features.map((f) => `${f.axis} ${f.value}`).join(', '),
  ].filter(Boolean);
  return truncate(parts.join('; '), SEARCH_TEXT_MAX);
}

const clean = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const unique = (values: string[]) => [...new Set(values.map((v) => clean(v).toLowerCase()).filter(Boolean))];

/** At most `max` characters, cut at a word boundary when one is near. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.8 ? cut.slice(0, space) : cut).replace(/[;,|\s]+$/, '');
}
