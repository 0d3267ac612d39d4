// How the products a search found for one piece of an outfit are ordered: by how close their
// labelled colour is to the colour seen (CIELAB), the family the piece was given counting when no
// colour was measured, and a pattern that agrees. Only products the shopper can buy are kept.
// Pure.
import { areNeighbours, FAMILY_RGB, nearestFamily, toLab, type Rgb } from '../catalogue/colours.js';
import type { ColorFamily } from '../catalogue/vocabulary.js';
import type { GarmentPiece } from './request.js';

export interface Candidate {
  itemId: string;
  score: number;
  metadata: { color_rgb: number[]; color_family: string; pattern: string; slot: string };
  product: { available: boolean };
}

/** The families worth a search for a piece: its own, then the nearest others to the colour seen. */
export function familiesToSearch(piece: GarmentPiece, count = 3): ColorFamily[] {
  const families: ColorFamily[] = [piece.colorFamily];
  if (!piece.rgb) return families;
  const lab = toLab(piece.rgb);
  const others = (Object.entries(FAMILY_RGB) as Array<[ColorFamily, Rgb]>)
    .filter(([family]) => family !== piece.colorFamily && family !== 'multicolour' && family !== 'other')
    .map(([family, rgb]) => ({ family, d: labDistance(lab, toLab(rgb)) }))
    .sort((a, b) => a.d - b.d);
  for (const { family } of others) if (families.length < count && !families.includes(family)) families.push(family);
  if (!families.includes(nearestFamily(piece.rgb))) families.push(nearestFamily(piece.rgb));
  return families;
}

const labDistance = (a: number[], b: number[]) => Math.sqrt((a[0]! - b[0]!) ** 2 + (a[1]! - b[1]!) ** 2 + (a[2]! - b[2]!) ** 2);

/** 0–1: 1 for the same colour, falling to 0 at a CIELAB distance of 60. */
export function colourCloseness(piece: GarmentPiece, candidate: Candidate): number {
  const family = candidate.metadata.color_family as ColorFamily;
  const rgb = candidate.metadata.color_rgb;
  if (piece.rgb && rgb.length === 3) return Math.max(0, 1 - labDistance(toLab(piece.rgb), toLab(rgb as Rgb)) / 60);
  if (family === piece.colorFamily) return 1;
  return areNeighbours(family, piece.colorFamily) ? 0.6 : 0.2;
}

function patternAgreement(piece: GarmentPiece, candidate: Candidate): number {
  if (!piece.pattern) return 0;
  if (candidate.metadata.pattern === piece.pattern) return 1;
  // Offline, a pattern is only told from solid: any print agrees a little with any other.
  return (piece.pattern === 'solid') === (candidate.metadata.pattern === 'solid') ? 0.5 : 0;
}

/** The candidates in the order shown, each once, buyable only, with the match score (0–1). */
export function rankCandidates<T extends Candidate>(piece: GarmentPiece, candidates: readonly T[]): Array<T & { score: number }> {
  const seen = new Set<string>();
  const unique = candidates.filter((c) => c.product.available && c.metadata.slot === piece.slot && !seen.has(c.itemId) && seen.add(c.itemId));
  const best = Math.max(1e-9, ...unique.map((c) => c.score));
  return unique
    .map((c) => {
      const score = 0.7 * colourCloseness(piece, c) + 0.15 * patternAgreement(piece, c) + 0.15 * (c.score / best);
      return { ...c, score: Math.round(score * 1e4) / 1e4 };
    })
    .sort((a, b) => b.score - a.score || a.itemId.localeCompare(b.itemId));
}
