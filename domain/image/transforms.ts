// The image route's path: an object key, then transforms as `/-/<name>/<value>` segments
// (`images/4f1c.jpeg/-/resize/400x/-/format/webp`). Parsing and normalising are pure: the same
// transforms in any order are one chain. What a chain is then made into (sizes snapped to steps, a
// change that changes nothing dropped) is `variant-space.ts`.
//
// Rules where the spec is silent:
// - The key ends at the first `-` segment; no key the service writes has one.
// - Each transform may appear once; a repeat is refused (400) rather than one silently winning.
// - `resize/<w>x<h>` fits inside the box keeping the aspect ratio; no side may be asked for above
//   MAX_SIDE.
// - `stretch/on|off|fill` is Uploadcare's: what a resize does to an original smaller than asked.
//   `on` (the default) scales it up, `off` leaves it at its size, `fill` leaves it at its size and
//   pads it with white to the size asked. Uploadcare applies a stretch to the resize after it; here
//   order is free like every other transform, and a stretch without a resize changes nothing.
// - Without `format` the variant keeps the original's format; `quality` applies to JPEG, WebP and
//   AVIF, and to PNG as palette quantisation (fewer colours, fewer bytes).

export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const TRANSFORM_NAMES = ['resize', 'stretch', 'format', 'quality'] as const;
export const STRETCH_MODES = ['on', 'off', 'fill'] as const;
export type StretchMode = (typeof STRETCH_MODES)[number];
export type TransformName = (typeof TRANSFORM_NAMES)[number];

/** Longest side a resize may ask for. */
export const MAX_SIDE = 4096;

export interface TransformChain {
  width?: number;
  height?: number;
  /** Absent: `on`. */
  stretch?: StretchMode;
  format?: ImageFormat;
  quality?: number;
}

export interface ImageRequest {
  key: string;
  /** null: the stored bytes as they are. */
  chain: TransformChain | null;
}

/** A transform the caller wrote wrongly; the message names it and says what is accepted. */
export class InvalidTransform extends Error {
  override name = 'InvalidTransform';
}

const MARKER = '-';
const WHOLE = /^[1-9][0-9]{0,5}$/;

const side = (text: string, which: 'width' | 'height', segment: string): number => {
  if (!WHOLE.test(text) || Number(text) > MAX_SIDE) {
    throw new InvalidTransform(`Invalid transform "${segment}": ${which} must be a whole number from 1 to ${MAX_SIDE}.`);
  }
  return Number(text);
};

const RESIZE_FORMS = 'resize/<width>x, resize/x<height> or resize/<width>x<height>';

function applyOne(chain: TransformChain, name: string, value: string | undefined, extra: string[]): void {
  const segment = ['-', name, value, ...extra].filter((part) => part !== undefined).join('/');
  if (!(TRANSFORM_NAMES as readonly string[]).includes(name)) {
    throw new InvalidTransform(`Unknown transform "${name}" in "${segment}": transforms are ${TRANSFORM_NAMES.join(', ')}.`);
  }
  if (value === undefined || value === '' || extra.length > 0) {
    const expected = name === 'resize' ? RESIZE_FORMS : name === 'format' ? `format/${IMAGE_FORMATS.join('|')}` : name === 'stretch' ? `stretch/${STRETCH_MODES.join('|')}` : 'quality/<1-100>';
    throw new InvalidTransform(`Invalid transform "${segment}": expected ${expected}.`);
  }
  const repeated =
    (name === 'resize' && (chain.width !== undefined || chain.height !== undefined)) ||
    (name === 'stretch' && chain.stretch) ||
    (name === 'format' && chain.format) ||
    (name === 'quality' && chain.quality !== undefined);
  if (repeated) throw new InvalidTransform(`Transform "${name}" is given more than once ("${segment}"); give each transform at most once.`);
  switch (name) {
    case 'resize': {
      const match = /^([^x]*)x([^x]*)$/.exec(value);
      if (!match || (!match[1] && !match[2])) throw new InvalidTransform(`Invalid transform "${segment}": expected ${RESIZE_FORMS}.`);
      if (match[1]) chain.width = side(match[1], 'width', segment);
      if (match[2]) chain.height = side(match[2], 'height', segment);
      return;
    }
    case 'stretch':
      if (!(STRETCH_MODES as readonly string[]).includes(value)) {
        throw new InvalidTransform(`Invalid transform "${segment}": stretch must be one of ${STRETCH_MODES.join(', ')}.`);
      }
      chain.stretch = value as StretchMode;
      return;
    case 'format':
      if (!(IMAGE_FORMATS as readonly string[]).includes(value)) {
        throw new InvalidTransform(`Invalid transform "${segment}": format must be one of ${IMAGE_FORMATS.join(', ')}.`);
      }
      chain.format = value as ImageFormat;
      return;
    case 'quality':
      if (!WHOLE.test(value) || Number(value) > 100) throw new InvalidTransform(`Invalid transform "${segment}": quality must be a whole number from 1 to 100.`);
      chain.quality = Number(value);
      return;
  }
}

/**
 * `images/4f1c.jpeg/-/resize/400x/-/format/webp` → key and chain. Throws InvalidTransform for a
 * malformed, unknown or repeated transform; the key itself is checked by the object store.
 */
export function parseImagePath(path: string): ImageRequest {
  const segments = path.split('/');
  const start = segments.indexOf(MARKER);
  if (start === -1) return { key: path, chain: null };
  const key = segments.slice(0, start).join('/');
  const rest = segments.slice(start);
  const chain: TransformChain = {};
  // Each transform runs from one `-` to the next: `-`, name, value, and anything extra is an error.
  for (let i = 0; i < rest.length; ) {
    let end = rest.indexOf(MARKER, i + 1);
    if (end === -1) end = rest.length;
    const [, name, value, ...extra] = rest.slice(i, end);
    if (name === undefined || name === '') throw new InvalidTransform(`Empty transform after "${rest.slice(0, i + 1).join('/')}": write /-/<name>/<value>.`);
    applyOne(chain, name, value, extra);
    i = end;
  }
  return { key, chain };
}

const steps = (chain: TransformChain): Array<[TransformName, string]> => {
  const out: Array<[TransformName, string]> = [];
  if (chain.width !== undefined || chain.height !== undefined) out.push(['resize', `${chain.width ?? ''}x${chain.height ?? ''}`]);
  if (chain.stretch) out.push(['stretch', chain.stretch]);
  if (chain.format) out.push(['format', chain.format]);
  if (chain.quality !== undefined) out.push(['quality', String(chain.quality)]);
  return out;
};

/** The chain in one fixed order (resize, stretch, format, quality): `resize/400x/format/webp/quality/80`. */
export function normaliseChain(chain: TransformChain): string {
  return steps(chain).map(([name, value]) => `${name}/${value}`).join('/');
}

/** The path that asks for this image, transforms in normal order: what a link should use. */
export function imagePath(key: string, chain: TransformChain | null): string {
  return [key, ...steps(chain ?? {}).map(([name, value]) => `-/${name}/${value}`)].join('/');
}

/** MIME type of an output format. */
export const contentTypeOf = (format: ImageFormat): string => `image/${format}`;
