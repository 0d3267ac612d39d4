// Slot and family from the listing's words. Each family cue scores its field's weight; in a title
// or product type the last cue of a run is the head noun ("Oxford Shirt Dress" is a dress) and
// counts most. The slot is the one whose families score most in all; the family, its best.
import { familyCues, GENERIC_FAMILIES, SPECIALISERS, type FamilyCue } from '../../../domain/catalogue/taxonomy/index.js';
import type { Listing } from '../../../domain/catalogue/product-input.js';
import type { Slot } from '../../../domain/catalogue/vocabulary.js';
import type { TextField } from './listing-text.js';

export interface Category {
  slot: Slot;
  family: string;
  /** 0 to 1: how clearly the listing named it. */
  confidence: number;
}

const DESCRIPTION_CAP = 1.2;
const TAGS_CAP = 2;

export function decideCategory(listing: Listing, fields: TextField[]): Category {
  const matcher = familyCues();
  const scores = new Map<string, { cue: FamilyCue; score: number }>();
  for (const field of fields) {
    const fieldScores = new Map<string, number>();
    const headFirst = field.kind === 'title' || field.kind === 'type';
    // In running text the first product word is the likeliest subject; later ones are pairings.
    let mentions = 0;
    field.segments.forEach((segment, index) => {
      // What follows "with" comes with the product ("Kurta with Dupatta"): it is not the head.
      const withAt = headFirst ? segment.indexOf('with') : -1;
      const all = matcher.scan(segment).filter((m) => m.values[0] !== null);
      const cues = withAt > 0 && all.some((m) => m.end <= withAt) ? all.filter((m) => m.end <= withAt) : all;
      const plain = cues.filter((m) => m.values.some((v) => v && v.strength >= 1 && !isGeneric(v)));
      const strongest = plain.length ? 1 : 0;
      cues.forEach((match, i) => {
        const isHead = i === cues.length - 1;
        for (const found of match.values) {
          if (!found) continue;
          const cue = specialise(found, segment);
          // A hint ("jordan", "slip on") counts only when no plain cue shares the run, and then
          // outweighs a generic word ("Vans Slip-On Shoes" are sneakers).
          if (cue.strength < 1 && strongest >= 1) continue;
          const strength = cue.strength < 1 && cues.some((m) => m.values.some((v) => v && isGeneric(v) && v.slot === cue.slot)) ? 1.2 : cue.strength;
          const position = headFirst ? (isHead || strength > 1 ? 1 : 0.45) * (index === 0 ? 1 : 0.8) : field.kind === 'description' ? 1 / (1 + mentions) : 1;
          const key = `${cue.slot}/${cue.family}`;
          fieldScores.set(key, (fieldScores.get(key) ?? 0) + field.weight * strength * position);
          if (!scores.has(key)) scores.set(key, { cue, score: 0 });
        }
        mentions++;
      });
    });
    const cap = field.kind === 'description' ? DESCRIPTION_CAP : field.kind === 'tags' ? TAGS_CAP : Infinity;
    for (const [key, score] of fieldScores) scores.get(key)!.score += Math.min(score, cap);
  }
  const footwearSizes = hasShoeSizes(listing);
  if (footwearSizes) bump(scores, { slot: 'footwear', family: 'shoe', strength: 1 }, 1.5);

  // A kurta sold with its salwar or churidar is a set.
  const kurta = scores.get('top/kurta');
  const salwar = scores.get('bottom/salwar');
  if (kurta && salwar && kurta.score > 0 && salwar.score > 0) bump(scores, { slot: 'full body', family: 'kurta set', strength: 1 }, kurta.score + salwar.score);

  const bySlot = new Map<Slot, number>();
  for (const { cue, score } of scores.values()) bySlot.set(cue.slot, (bySlot.get(cue.slot) ?? 0) + score);
  const ranked = [...bySlot].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[1] <= 0) return { ...fallback(listing), confidence: 0.2 };
  const entries = [...scores.values()].filter(({ score }) => score > 0);
  // A generic name (`shoe`, `bag`, `top`) yields to any named family of its slot; "accessories"
  // is a shop's umbrella for bags, hats, socks, jewellery and eyewear too.
  const named = (slots: readonly Slot[]) =>
    entries.filter(({ cue }) => slots.includes(cue.slot) && !isGeneric(cue)).sort((a, b) => b.score - a.score)[0];
  let slot = best[0];
  let family = entries.filter(({ cue }) => cue.slot === slot).sort((a, b) => b.score - a.score)[0]!.cue.family;
  if (GENERIC_FAMILIES.has(family)) {
    const specific = named(slot === 'accessory' ? UMBRELLA : [slot]);
    if (specific) [slot, family] = [specific.cue.slot, specific.cue.family];
  }
  const margin = second ? (best[1] - second[1]) / best[1] : 1;
  return { slot, family, confidence: round(Math.min(1, 0.4 + 0.15 * best[1]) * (0.5 + 0.5 * margin)) };
}

function bump(scores: Map<string, { cue: FamilyCue; score: number }>, cue: FamilyCue, by: number): void {
  const key = `${cue.slot}/${cue.family}`;
  const entry = scores.get(key) ?? { cue, score: 0 };
  entry.score += by;
  scores.set(key, entry);
}

const UMBRELLA: readonly Slot[] = ['accessory', 'bag', 'headwear', 'hosiery', 'jewellery', 'eyewear'];
const isGeneric = (cue: FamilyCue) => GENERIC_FAMILIES.has(cue.family);

const APPAREL_WORDS = /\b(kidswear|menswear|womenswear|babywear|childrenswear|apparel|clothing|clothes|garment|outfit)\b/i;
const SHOE_AXIS = /shoe|footwear|\b(eu|us|uk)\s*size/i;
const CLOTHING_SIZE = /^(xxs|xs|s|m|l|xl|xxl|xxxl|[2-6]xl|small|medium|large|x ?large|x ?small|one size|o\/?s|os|free size|\d{2}(\/\d{2})?|\d{1,2}[yt]?)$/i;

function hasShoeSizes(listing: Listing): boolean {
  return (listing.options ?? []).some((o) => SHOE_AXIS.test(o.name));
}

/** When no word names the product: clothing sizes say clothing, other sizes an accessory, none at all not fashion (a fee, a note). */
function fallback(listing: Listing): { slot: Slot; family: string } {
  const sizes = (listing.options ?? []).filter((o) => /size|taille|grosse|größe/i.test(o.name)).flatMap((o) => o.values);
  const clothing = sizes.some((s) => CLOTHING_SIZE.test(s.trim()) && !/^(os|o\/s|one size|free size)$/i.test(s.trim()));
  const apparel = APPAREL_WORDS.test(`${listing.name} ${listing.productType} ${listing.tags.join(' ')}`);
  if (clothing || apparel) return { slot: 'top', family: 'other' };
  return sizes.length ? { slot: 'accessory', family: 'other' } : { slot: 'non fashion', family: 'other' };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** A generic family made specific by a word in the same run ("Formal Black Shoes"). */
function specialise(cue: FamilyCue, segment: string[]): FamilyCue {
  const table = SPECIALISERS[cue.family];
  if (!table) return cue;
  for (const word of segment) {
    const family = table[word];
    if (family) return { ...cue, family };
  }
  return cue;
}
