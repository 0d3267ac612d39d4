// Where each item of a look goes, as an outfit reads on a flat-lay: the body's column in the
// middle (outerwear and tops above full-body pieces above bottoms above footwear) and the small
// things (headwear, eyewear, jewellery, bags, accessories) in a column beside it. Pure: the same
// items and canvas give the same rectangles.
import type { Slot } from '../catalogue/vocabulary.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Rows of the body's column, top to bottom, with the share of its height each takes. */
const BODY_ROWS: Array<{ slots: readonly Slot[]; weight: number }> = [
  { slots: ['outerwear', 'top'], weight: 1.15 },
  { slots: ['full body', 'swimwear', 'sleepwear', 'underwear'], weight: 1.6 },
  { slots: ['bottom'], weight: 1.15 },
  { slots: ['footwear'], weight: 0.6 },
];

/** The column beside it, top to bottom. */
const SIDE_ORDER: readonly Slot[] = ['headwear', 'eyewear', 'jewellery', 'accessory', 'bag', 'hosiery', 'non fashion'];

export interface LayoutInput {
  width: number;
  height: number;
  /** Height kept free at the top (the label). */
  top: number;
  /** Each item's slot, in request order. */
  slots: readonly Slot[];
}

const MARGIN = 0.035;
const GAP = 0.02;

/** One rectangle per item, in the order of `slots`. */
export function layoutLook({ width, height, top, slots }: LayoutInput): Rect[] {
  const margin = Math.round(Math.min(width, height) * MARGIN);
  const gap = Math.round(Math.min(width, height) * GAP);
  const area: Rect = { x: margin, y: top + margin, width: width - 2 * margin, height: height - top - 2 * margin };

  const rowOf = (slot: Slot) => BODY_ROWS.findIndex((row) => row.slots.includes(slot));
  const body = slots.map((slot, index) => ({ slot, index })).filter(({ slot }) => rowOf(slot) >= 0);
  const side = slots
    .map((slot, index) => ({ slot, index }))
    .filter(({ slot }) => rowOf(slot) < 0)
    .sort((a, b) => SIDE_ORDER.indexOf(a.slot) - SIDE_ORDER.indexOf(b.slot) || a.index - b.index);

  const rects: Rect[] = new Array<Rect>(slots.length);
  // Nothing for the body's column: the small things take the whole width, one row each.
  if (!body.length) {
    stack(area, side.map(({ index }) => [index]), side.map(() => 1), gap, rects);
    return rects;
  }
  const sideWidth = side.length ? Math.round(area.width * (width > height ? 0.24 : 0.3)) : 0;
  const bodyArea: Rect = { ...area, width: area.width - sideWidth - (side.length ? gap : 0) };
  const rows = BODY_ROWS.map((row, r) => ({ weight: row.weight, members: body.filter(({ slot }) => rowOf(slot) === r).map(({ index }) => index) })).filter(
    (row) => row.members.length,
  );
  stack(bodyArea, rows.map((row) => row.members), rows.map((row) => row.weight), gap, rects);
  if (side.length) {
    const sideArea: Rect = { x: bodyArea.x + bodyArea.width + gap, y: area.y, width: sideWidth, height: area.height };
    stack(sideArea, side.map(({ index }) => [index]), side.map(() => 1), gap, rects);
  }
  return rects;
}

/** Rows down `area` by weight, each row's members side by side. */
function stack(area: Rect, rows: number[][], weights: number[], gap: number, out: Rect[]): void {
  const total = weights.reduce((sum, w) => sum + w, 0);
  const free = area.height - gap * (rows.length - 1);
  let y = area.y;
  rows.forEach((members, r) => {
    const rowHeight = Math.floor((free * weights[r]!) / total);
    const cellWidth = Math.floor((area.width - gap * (members.length - 1)) / members.length);
    members.forEach((index, c) => {
      out[index] = { x: area.x + c * (cellWidth + gap), y, width: cellWidth, height: rowHeight };
    });
    y += rowHeight + gap;
  });
}
