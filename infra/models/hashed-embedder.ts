// The offline Embedder (DESIGN.md, the embedded default): feature hashing of words and word pairs
// into a fixed number of dimensions, with the taxonomy folded in: every word that names a family
// also adds that family ("trainers" and "sneakers" share `family:sneaker`), every colour name its
// colour family ("bordeaux" and "burgundy" share `colour:burgundy`). Unit length, deterministic.
import { findColours } from '../../domain/catalogue/colours.js';
import { familyCues, words } from '../../domain/catalogue/taxonomy/index.js';
import type { Embedder } from './port.js';

export const HASHED_DIMENSIONS = 256;

const WEIGHTS = { word: 1, pair: 0.5, family: 2, slot: 0.8, colour: 1.5 };

export function createHashedEmbedder(dimensions = HASHED_DIMENSIONS): Embedder {
  return {
    name: `hashed-${dimensions}`,
    dimensions,
    embed: async (texts) => texts.map((text) => embedText(text, dimensions)),
  };
}

export function embedText(text: string, dimensions = HASHED_DIMENSIONS): number[] {
  const vector = new Float64Array(dimensions);
  const add = (feature: string, weight: number) => {
    const h = fnv1a(feature);
    vector[h % dimensions]! += (h & 0x80000000 ? -1 : 1) * weight;
  };
  const tokens = words(text).map(stem);
  for (let i = 0; i < tokens.length; i++) {
    add(`w:${tokens[i]}`, WEIGHTS.word);
    if (i + 1 < tokens.length) add(`p:${tokens[i]} ${tokens[i + 1]}`, WEIGHTS.pair);
  }
  const raw = words(text);
  for (const match of familyCues().scan(raw)) {
    for (const cue of match.values) {
      if (!cue) continue;
      add(`family:${cue.slot}/${cue.family}`, WEIGHTS.family * cue.strength);
      add(`slot:${cue.slot}`, WEIGHTS.slot * cue.strength);
    }
  }
  for (const colour of findColours(raw)) add(`colour:${colour.family}`, WEIGHTS.colour * (colour.weak ? 0.5 : 1));
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) {
    add('empty', 1);
    norm = 1;
  }
  const scale = 1 / Math.sqrt(norm);
  return Array.from(vector, (value) => value * scale);
}

/** A light plural fold so "dresses" and "dress" share their word feature. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
