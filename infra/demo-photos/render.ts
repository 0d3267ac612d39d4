// The demo store's product photos, drawn on demand: an SVG flat-lay of the garment in its colour
// and print on a plain studio background, rasterised to PNG by sharp. Nothing is stored; the
// ingest fetcher asks `demoPhotoSource` for a `stylist-demo:` URL instead of going to the network.
import sharp from 'sharp';
import { parseDemoPhotoUrl, type DemoPhotoSpec, type DemoProduct } from '../../domain/demo-catalogue/generate.js';
import type { Pattern } from '../../domain/catalogue/vocabulary.js';
import { cloth, drawGarment } from './silhouettes.js';

export const STUDIO_BACKGROUND = '#f3f1ee';
const DEFAULT_WIDTH = 800;

function shade(hex: string, factor: number): string {
  const n = parseInt(hex.slice(1, 7), 16);
  const channel = (c: number) => Math.max(0, Math.min(255, Math.round(c * factor))).toString(16).padStart(2, '0');
  return `#${channel((n >> 16) & 255)}${channel((n >> 8) & 255)}${channel(n & 255)}`;
}

const tile = (size: number | [number, number], body: string, scale = 1) => {
  const [w, h] = typeof size === 'number' ? [size, size] : size;
  return `<pattern id="print" patternUnits="userSpaceOnUse" width="${w}" height="${h}"${scale === 1 ? '' : ` patternTransform="scale(${scale})"`}>${body}</pattern>`;
};

/** One `<pattern id="print">` per vocabulary pattern, in the secondary colour over the main. */
function printDef(pattern: Pattern, s: string, main: string, scale: number): string {
  const flower = (x: number, y: number, r: number) =>
    [0, 72, 144, 216, 288].map((a) => `<circle cx="${x + r * Math.cos((a * Math.PI) / 180)}" cy="${y + r * Math.sin((a * Math.PI) / 180)}" r="${r * 0.75}" fill="${s}"/>`).join('') +
    `<circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="${shade(s, 0.7)}"/>`;
  switch (pattern) {
    case 'solid':
      return '';
    case 'striped':
      return tile(60, `<rect width="60" height="22" fill="${s}"/>`, scale);
    case 'checked':
      return tile(90, `<rect width="45" height="90" fill="${s}" opacity="0.5"/><rect width="90" height="45" fill="${s}" opacity="0.5"/>`, scale);
    case 'plaid':
      return tile(140, `<rect x="20" width="40" height="140" fill="${s}" opacity="0.45"/><rect y="20" width="140" height="40" fill="${s}" opacity="0.45"/><rect x="100" width="6" height="140" fill="${s}"/><rect y="100" width="140" height="6" fill="${s}"/>`, scale);
    case 'gingham':
      return tile(40, `<rect width="20" height="40" fill="${s}" opacity="0.5"/><rect width="40" height="20" fill="${s}" opacity="0.5"/>`, scale);
    case 'floral':
      return tile(150, flower(40, 40, 22) + flower(115, 110, 18) + `<ellipse cx="95" cy="40" rx="16" ry="7" fill="${shade(main, 0.6)}" transform="rotate(30 95 40)"/>`, scale);
    case 'ditsy floral':
      return tile(56, flower(14, 14, 6) + flower(42, 42, 5), scale);
    case 'animal print':
      return tile(110, `<path d="M20 20 q18 -10 26 6 q-6 18 -24 12 q-10 -8 -2 -18 Z M70 60 q20 -6 22 12 q-8 16 -24 8 q-8 -10 2 -20 Z M30 80 q12 -6 16 6 q-4 12 -16 6 Z" fill="none" stroke="${s}" stroke-width="7"/><circle cx="34" cy="28" r="5" fill="${s}"/><circle cx="81" cy="70" r="5" fill="${s}"/>`, scale);
    case 'geometric':
      return tile(80, `<path d="M0 80 L40 10 L80 80 Z" fill="${s}" opacity="0.8"/>`, scale);
    case 'abstract':
      return tile(240, `<path d="M20 60 Q90 -10 150 60 T230 120 Q170 200 90 160 T20 60 Z" fill="${s}" opacity="0.75"/><circle cx="190" cy="200" r="26" fill="${shade(s, 0.7)}"/>`, scale);
    case 'polka dot':
      return tile(60, `<circle cx="15" cy="15" r="10" fill="${s}"/><circle cx="45" cy="45" r="10" fill="${s}"/>`, scale);
    case 'paisley':
      return tile(120, `<path d="M40 90 Q10 60 40 30 Q70 10 80 40 Q85 70 40 90 Z" fill="${s}"/><circle cx="55" cy="45" r="8" fill="${main}"/><path d="M95 110 Q80 95 95 80 Q110 72 112 90 Z" fill="${s}"/>`, scale);
    case 'camouflage':
      return tile(220, `<path d="M10 30 Q60 0 100 40 Q90 90 40 80 Q0 70 10 30 Z M130 120 Q190 90 210 150 Q180 210 120 180 Q100 150 130 120 Z" fill="${s}" opacity="0.8"/><path d="M120 10 Q170 0 180 50 Q140 80 110 50 Z M20 140 Q70 120 80 170 Q50 210 10 190 Z" fill="${shade(main, 0.55)}"/>`, scale);
    case 'chevron':
      return tile([80, 50], `<path d="M0 35 L40 5 L80 35" fill="none" stroke="${s}" stroke-width="14"/>`, scale);
    case 'herringbone':
      return tile(40, `<path d="M0 0 L20 20 M20 20 L40 0 M0 20 L20 40 M20 40 L40 20" stroke="${s}" stroke-width="6" opacity="0.6"/>`, scale);
    case 'tie dye':
      return tile(300, [140, 110, 80, 50, 20].map((r, i) => `<circle cx="150" cy="150" r="${r}" fill="none" stroke="${s}" stroke-width="16" opacity="${0.35 + i * 0.1}"/>`).join(''), scale);
    case 'colour block':
      return tile([800, 1000], `<rect y="540" width="800" height="460" fill="${s}"/>`);
    case 'graphic':
      return tile([800, 1000], `<circle cx="400" cy="430" r="90" fill="none" stroke="${s}" stroke-width="22"/><path d="M340 470 L400 370 L460 470 Z" fill="${s}"/>`);
    case 'other':
      return tile(50, `<path d="M25 5 L45 25 L25 45 L5 25 Z" fill="none" stroke="${s}" stroke-width="5" opacity="0.6"/>`, scale);
  }
}

/** A close-up of the cloth: the print enlarged, a seam and its stitches. */
function detail(spec: DemoPhotoSpec, dark: string): string {
  const swatch = 'M80 120 Q400 80 720 120 L740 880 Q400 920 60 880 Z';
  const paint = { main: spec.colour, dark, trim: spec.secondary, print: spec.pattern !== 'solid', back: false };
  return cloth(paint, swatch) + `<path d="M70 700 Q400 660 735 700" fill="none" stroke="${dark}" stroke-width="6" stroke-dasharray="22 14"/>`;
}

export function demoPhotoSvg(spec: DemoPhotoSpec, width = DEFAULT_WIDTH): string {
  const height = Math.round(width * 1.25);
  const dark = shade(spec.colour, 0.72);
  const isDetail = spec.view === 'detail';
  const print = printDef(spec.pattern, spec.secondary, spec.colour, isDetail ? 2.2 : 1);
  const body = isDetail
    ? detail(spec, dark)
    : drawGarment(spec.kind, { main: spec.colour, dark, trim: spec.secondary, print: print !== '', back: spec.view === 'flat back' });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 800 1000">` +
    `<defs>${print}</defs><rect width="800" height="1000" fill="${STUDIO_BACKGROUND}"/>${body}</svg>`
  );
}

/** PNG of the photo, `size` pixels wide and 1.25 times as tall (800×1000 by default). */
export async function renderDemoPhoto(spec: DemoPhotoSpec, size = DEFAULT_WIDTH): Promise<Buffer> {
  // Low zlib effort: these are flat colours that compress well anyway, and speed matters more.
  return sharp(Buffer.from(demoPhotoSvg(spec, size))).png({ compressionLevel: 2 }).toBuffer();
}

/** Resolves a `stylist-demo:` image URL of the given products to PNG bytes; null when unknown. */
export function demoPhotoSource(products: DemoProduct[], size = DEFAULT_WIDTH): (src: string) => Promise<Buffer | null> {
  // Only the small specs are indexed; every photo is drawn again when asked for.
  const specs = new Map<string, DemoPhotoSpec[]>(products.map((p) => [p.photos[0]?.sku ?? String(p.input.sku), p.photos]));
  return async (src) => {
    const at = parseDemoPhotoUrl(src);
    const spec = at ? specs.get(at.sku)?.find((s) => s.index === at.index) : undefined;
    return spec ? renderDemoPhoto(spec, size) : null;
  };
}
