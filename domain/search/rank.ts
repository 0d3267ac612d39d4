// Fusing the retrieval legs into one ranking (issue 13 point 2). Each candidate arrives with what
// each leg said of it: the full-text rank, the occasion-boost rank, the vector similarity, and
// its labelled attributes, which are checked against what the shopper asked for. Two fusions:
// - `blend` (default): a weighted sum of normalised signals, led by attribute agreement, because
//   a shopper's explicit "red dress" is better evidence than any text score;
// - `rrf`: reciprocal rank fusion over the legs, kept to compare against (bench/search-quality.ts).
// Whatever the fusion, the products that are the thing asked for come first (`isAsked`), and among
// them (and among the looser matches) a product the shopper can buy ranks above every one they
// cannot, then a product whose own name the shopper typed in full comes first
// (domain/search/names.ts). Pure.
import { areNeighbours } from '../catalogue/colours.js';
import { familyTraits, nearFamilies } from '../catalogue/taxonomy/index.js';
import type { ColorFamily } from '../catalogue/vocabulary.js';
import type { UnderstoodQuery } from './understand.js';

export type Fusion = 'blend' | 'rrf';
export type Leg = 'text' | 'boost' | 'attributes' | 'traits' | 'vector';

/** What the shopper's words asked for, as far as ranking is concerned (filters are applied before). */
export interface RankingIntent {
  slot?: string;
  families: readonly string[];
  /** The families near those named (a hoodie for "sweatshirt"): the next best thing, never the thing asked for. */
  nearFamilies: readonly string[];
  /** Words by which a near family's listing shows it is nearly the family asked for (a drawstring on trousers for "joggers"). */
  traits: readonly string[];
  colours: readonly ColorFamily[];
  materials: readonly string[];
  patterns: readonly string[];
  fit?: string;
  /** The gender the words named: its own items first, unisex ones after (the filter lets both through). */
  gender?: string;
  /** `axis:value`, as in featureKeys. */
  featureKeys: readonly string[];
  hasBoosts: boolean;
  /** Words are left to search as text; without any ("athleisure", "what to wear to yoga"), the boosts speak for the text. */
  hasTerms: boolean;
}

/** What ranking reads of the understood words. */
export function rankingIntent(understood: UnderstoodQuery): RankingIntent {
  return {
    ...(understood.slot ? { slot: understood.slot } : {}),
    families: understood.families,
    nearFamilies: [...new Set(understood.families.flatMap((family) => nearFamilies(family)))].filter((family) => !understood.families.includes(family)),
    traits: [...new Set(understood.families.flatMap((family) => familyTraits(family)))],
    colours: understood.colours,
    materials: understood.materials,
    patterns: understood.patterns,
    ...(understood.fit ? { fit: understood.fit } : {}),
    ...(understood.gender ? { gender: understood.gender } : {}),
    featureKeys: understood.features.map((f) => `${f.axis}:${f.value}`),
    hasBoosts: understood.boosts.length > 0,
    hasTerms: understood.terms.length > 0,
  };
}

export interface CandidateSignals {
  itemId: string;
  /** 0-based position of the candidate in each leg that found it. */
  legs: Partial<Record<Leg, number>>;
  textRank: number;
  /** Share of the shopper's words the item's text has, 0 to 1. */
  textCoverage: number;
  boostRank: number;
  /** Cosine similarity from the vector leg; 0 when the leg did not find it. */
  similarity: number;
  slot: string;
  family: string;
  colorFamily: ColorFamily;
  colors: readonly string[];
  materials: readonly string[];
  pattern: string;
  fit: string | null;
  gender: string;
  featureKeys: readonly string[];
  /** Its listing has a trait of the family asked for (`RankingIntent.traits`); read for a near family's items only. */
  hasTraits?: boolean;
  available: boolean;
  /** The shopper typed the product's own name in full. */
  named?: boolean;
}

export interface Ranked {
  itemId: string;
  score: number;
  available: boolean;
  named: boolean;
  /** It is the thing the shopper asked for (see `isAsked`). */
  answers: boolean;
}

/**
 * What each attribute the shopper named weighs: in ranking (agreement) and in retrieval (the
 * attribute leg) alike. A near family (taxonomy/near.ts) earns part of the family's weight; any
 * other family of the slot named, less. A near family's item whose listing shows a trait of the
 * family asked for earns `nearFamilyTraits` more, still short of the family's own weight; that is
 * read from the listing's words, so ranking alone weighs it (the attribute leg reads labels).
 */
export const ATTRIBUTE_WEIGHTS = { family: 3, nearFamily: 1.5, nearFamilyTraits: 0.9, otherFamilyOfSlot: 0.9, slot: 1, colour: 2, material: 2, pattern: 1, fit: 0.5, feature: 1, gender: 1.5 } as const;
const BLEND = { agreement: 0.5, text: 0.25, vector: 0.15, boost: 0.1 };
const RRF_K = 60;
const TEXT_MIX = { coverage: 0.6, rank: 0.4 };

/** How much of what the shopper asked for the candidate has, 0 to 1; null when they asked for nothing checkable. */
export function agreement(intent: RankingIntent, c: CandidateSignals): number | null {
  let asked = 0;
  let met = 0;
  if (intent.families.length) {
    asked += ATTRIBUTE_WEIGHTS.family;
    if (intent.families.includes(c.family)) met += ATTRIBUTE_WEIGHTS.family;
    else if (intent.nearFamilies.includes(c.family)) met += ATTRIBUTE_WEIGHTS.nearFamily + (c.hasTraits ? ATTRIBUTE_WEIGHTS.nearFamilyTraits : 0);
    else if (intent.slot && intent.slot === c.slot) met += ATTRIBUTE_WEIGHTS.otherFamilyOfSlot;
  } else if (intent.slot) {
    asked += ATTRIBUTE_WEIGHTS.slot;
    if (intent.slot === c.slot) met += ATTRIBUTE_WEIGHTS.slot;
  }
  if (intent.colours.length) {
    asked += ATTRIBUTE_WEIGHTS.colour;
    met += ATTRIBUTE_WEIGHTS.colour * colourMatch(intent.colours, c);
  }
  if (intent.materials.length) {
    asked += ATTRIBUTE_WEIGHTS.material;
    // The main fabric counts in full, a secondary one in part.
    const at = c.materials.findIndex((m) => intent.materials.includes(m));
    if (at === 0) met += ATTRIBUTE_WEIGHTS.material;
    else if (at > 0) met += ATTRIBUTE_WEIGHTS.material * 0.6;
  }
  if (intent.patterns.length) {
    asked += ATTRIBUTE_WEIGHTS.pattern;
    if (intent.patterns.includes(c.pattern)) met += ATTRIBUTE_WEIGHTS.pattern;
  }
  if (intent.fit) {
    asked += ATTRIBUTE_WEIGHTS.fit;
    if (c.fit === intent.fit) met += ATTRIBUTE_WEIGHTS.fit;
  }
  if (intent.gender) {
    asked += ATTRIBUTE_WEIGHTS.gender;
    if (c.gender === intent.gender) met += ATTRIBUTE_WEIGHTS.gender;
    else if (c.gender === 'unisex') met += ATTRIBUTE_WEIGHTS.gender * 0.4;
  }
  for (const key of intent.featureKeys) {
    asked += ATTRIBUTE_WEIGHTS.feature;
    if (c.featureKeys.includes(key)) met += ATTRIBUTE_WEIGHTS.feature;
  }
  return asked === 0 ? null : met / asked;
}

/** 1 for the colour asked, a little less when it is one of the colours sold, half for a neighbour. */
function colourMatch(colours: readonly ColorFamily[], c: CandidateSignals): number {
  if (colours.includes(c.colorFamily)) return 1;
  if (c.colors.some((colour) => (colours as readonly string[]).includes(colour))) return 0.8;
  if (colours.some((colour) => areNeighbours(colour, c.colorFamily))) return 0.5;
  return 0;
}

/** A vector match alone counts when it is this close, absolutely and next to the best one. */
const VECTOR_ONLY = { floor: 0.25, ofBest: 0.6 };

/**
 * Whether a candidate is worth showing at all: found by the text, or matching something the
 * shopper named, or close enough in meaning. The vector leg returns its nearest whatever they are;
 * in a small catalogue that is everything, and sneakers do not answer "dress".
 */
export function isRelevant(intent: RankingIntent, c: CandidateSignals, bestSimilarity: number): boolean {
  if (c.named) return true;
  if (c.legs.text !== undefined || c.legs.boost !== undefined) return true;
  const agreed = agreement(intent, c);
  if (agreed !== null) return agreed > 0;
  return c.similarity >= Math.max(VECTOR_ONLY.floor, VECTOR_ONLY.ofBest * bestSimilarity);
}

/**
 * Whether a candidate is the thing the shopper asked for: the garment named (its family, or its
 * slot when only the slot was named), for the gender named (or unisex). With no garment named,
 * every other checkable attribute in full, for the gender named or unisex; with none of those
 * either, every word of the text. A product found by its name is. A family that understanding only
 * guessed from a word (a model name: "samba" reads as sneakers) counts as named: every sneaker is
 * then the thing asked for. Sold-out products rank after the buyable ones among those that are,
 * and before the looser matches (a tee for "hoodie"): a keyword engine would not have found those
 * at all, so "sold out last" means last among the matches, and a shopper who asked for a blazer
 * sees the store's blazers, sold out, before its jackets and vests. Colour, material and the rest
 * order the garments asked for among themselves, as the blend weighs them.
 */
export function isAsked(intent: RankingIntent, c: CandidateSignals, agreed: number | null): boolean {
  if (c.named) return true;
  const genderMet = !intent.gender || c.gender === intent.gender || c.gender === 'unisex';
  if (intent.families.length || intent.slot !== undefined) {
    const garmentMet = intent.families.length ? intent.families.includes(c.family) : intent.slot === c.slot;
    return garmentMet && genderMet;
  }
  if (!genderMet) return false;
  const { gender, ...withoutGender } = intent;
  const rest = gender ? agreement(withoutGender, c) : agreed;
  if (rest !== null) return rest >= 1 - 1e-9;
  return !intent.hasTerms || c.textCoverage >= 1;
}

/**
 * The first ranking (every candidate counted as available) again, now that pricing said which the
 * shopper can buy: the same scores and tiers, only availability changed. Scoring again over the
 * kept candidates alone would rescale the text and boost signals and could order them otherwise
 * than pricing went through them.
 */
export function withAvailability(ranked: readonly Ranked[], available: ReadonlyMap<string, boolean>): Ranked[] {
  return ranked
    .filter((r) => available.has(r.itemId))
    .map((r) => ({ ...r, available: available.get(r.itemId)! }))
    .sort(byTierThenScore);
}

const byTierThenScore = (a: Ranked, b: Ranked): number =>
  Number(b.answers) - Number(a.answers) ||
  Number(b.available) - Number(a.available) ||
  Number(b.named) - Number(a.named) ||
  b.score - a.score ||
  (a.itemId < b.itemId ? -1 : 1);

export function rank(intent: RankingIntent, candidates: readonly CandidateSignals[], fusion: Fusion = 'blend'): Ranked[] {
  const maxText = Math.max(0, ...candidates.map((c) => c.textRank));
  const maxBoost = Math.max(0, ...candidates.map((c) => c.boostRank));
  const scored = candidates.map((c): Ranked => {
    let score: number;
    const agreed = agreement(intent, c);
    if (fusion === 'rrf') {
      score = Object.values(c.legs).reduce((sum, position) => sum + 1 / (RRF_K + position + 1), 0);
    } else {
      // Which words match matters more than how often.
      const boost = intent.hasBoosts && maxBoost > 0 ? c.boostRank / maxBoost : 0;
      // When every word was an occasion or a filter, what suits the occasion takes the text's place.
      const text = !intent.hasTerms && intent.hasBoosts ? boost : TEXT_MIX.coverage * c.textCoverage + TEXT_MIX.rank * (maxText > 0 ? c.textRank / maxText : 0);
      const vector = Math.max(0, c.similarity);
      // With nothing checkable asked, its share goes to the text and vector signals.
      score =
        agreed === null
          ? (BLEND.text + BLEND.agreement * 0.7) * text + (BLEND.vector + BLEND.agreement * 0.3) * vector + BLEND.boost * boost
          : BLEND.agreement * agreed + BLEND.text * text + BLEND.vector * vector + BLEND.boost * boost;
    }
    return { itemId: c.itemId, score: round(score), available: c.available, named: c.named === true, answers: isAsked(intent, c, agreed) };
  });
  return scored.sort(byTierThenScore);
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
