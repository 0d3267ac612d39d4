// The offline Labeller (DESIGN.md, the embedded default): reads the listing's words (title and
// product type over tags, options and description) and the first photo's pixels, and answers
// within the closed vocabularies. Deterministic and fast: no model, no I/O.
import { isFamilyOf, TAXONOMY_VERSION } from '../../domain/catalogue/taxonomy/index.js';
import type { Listing } from '../../domain/catalogue/product-input.js';
import { audienceSignal, genderFromStore, type AudienceSignal } from '../../domain/catalogue/store-audience.js';
import type { Feature, Labels, Slot } from '../../domain/catalogue/vocabulary.js';
import { decideAgeGroup, decideFeatures, decideFit, impliedGender, readGenderCue, decideMaterial, decidePattern, featureKeys } from './offline/attributes.js';
import { decideCategory } from './offline/category.js';
import { decideColours } from './offline/colour.js';
import { listingFields } from './offline/listing-text.js';
import type { Labeller, LabelRequest } from './port.js';

/** The labels of one product, synchronously (the bench and the OpenAI labeller's fallback call this). */
export function labelListing({ listing, photos, targetGender, store }: LabelRequest): Labels {
  const fields = listingFields(listing);
  const { slot, family: found } = decideCategory(listing, fields);
  const family = isFamilyOf(slot, found) ? found : 'other';
  const signal = signalOf(listing, fields, slot, family);
  const colours = decideColours(listing, fields, photos);
  const features = decideFeatures(fields, slot, family);
  return {
    slot,
    family,
    gender: targetGender ?? genderFromStore(signal, store ?? null),
    age_group: decideAgeGroup(listing, fields),
    color_rgb: colours.color_rgb,
    color_family: colours.color_family,
    colors: colours.colors,
    pattern: decidePattern(fields, family),
    material: decideMaterial(listing, fields, slot),
    fit: decideFit(fields, slot),
    features,
    featureKeys: featureKeys(features),
    taxonomyVersion: TAXONOMY_VERSION,
  };
}

function signalOf(listing: Listing, fields: ReturnType<typeof listingFields>, slot: Slot, family: string): AudienceSignal {
  return audienceSignal(listing, { cue: readGenderCue(listing, fields, slot), implied: impliedGender(slot, family), fashion: slot !== 'non fashion', footwear: slot === 'footwear' });
}

/**
 * One listing's gender evidence as this labeller reads it: what the store-audience read model keeps
 * per item, so the dataset's audience is gathered without labelling every listing again.
 */
export function listingAudienceSignal(listing: Listing): AudienceSignal {
  const fields = listingFields(listing);
  const { slot, family: found } = decideCategory(listing, fields);
  return signalOf(listing, fields, slot, isFamilyOf(slot, found) ? found : 'other');
}

/** The offline answer to the feature axes of a given family (used when another labeller chose the family). */
export function offlineFeatures(listing: Listing, slot: Slot, family: string): Feature[] {
  return decideFeatures(listingFields(listing), slot, family);
}

export function createOfflineLabeller(): Labeller {
  return {
    name: 'offline',
    label: async (request) => labelListing(request),
  };
}
