// Draws a look (POST /v2/agent/looks): the offline composition of the items' stored photos
// (look-composer.ts), then, with an image model configured, the model's picture drawn from it
// (and from the shopper's photo for try-on), the offline picture standing in when the model fails
// or runs past its timeout. Two bounds:
// - each look takes one of the looks' own places in flight (FairSlots, owners = organizations:
//   past two places one store's burst cannot take every one, and waiting looks are served one
//   organization after another), held for the model call too, so looks in flight, and so calls to
//   the model, stay bounded whatever the model does;
// - its sharp work (the photos' decodes and the composition, then fitting the model's picture)
//   runs in the process's pool of sharp slots, one per core, shared with image delivery and match
//   (owner `org:<id>`); the model call holds no such slot: a core is not held while a server draws.
// Past either line's bounds a look is refused (ImagesBusy / WaitingLineFull: the route's 503).
import sharp from 'sharp';
import type { Slot } from '../../domain/catalogue/vocabulary.js';
import { layoutLook, type Rect } from '../../domain/looks/layout.js';
import type { ObjectStore } from '../objects/port.js';
import type { ImageModel } from '../models/image-model.js';
import { FairSlots, organizationOwner } from './fair-slots.js';
import { composeLook, labelBand, LOOK_PHOTO_MAX_BYTES, LOOK_PHOTO_MAX_PIXELS } from './look-composer.js';

export { Abandoned, ImagesBusy, WaitingLineFull } from './fair-slots.js';

export interface LookItem {
  itemId: string;
  name: string;
  slot: Slot;
  colour: readonly [number, number, number];
  colourName: string;
  /** Object store key of its first stored photo, or null. */
  photoKey: string | null;
  /** Under the picture, or null. */
  caption: string | null;
}

export interface LookDrawing {
  label: string | null;
  width: number;
  height: number;
  items: LookItem[];
  /** Try-on: the shopper's photo (a JPEG), for the model. */
  userPhoto: Buffer | null;
  /** For the model: the shopper's words and the store's picture guidance (styling.picture). */
  customInstructions: string | null;
  storePicture: string | null;
}

export interface DrawnLook {
  bytes: Buffer;
  contentType: 'image/jpeg';
  source: 'offline' | 'model';
  /** Why the model's picture is not the one answered (it failed, or ran past its timeout). */
  fallbackReason: string | null;
  regions: Rect[];
  photos: boolean[];
}

export interface LookRendererOptions {
  objects: ObjectStore;
  model: ImageModel | null;
  modelTimeoutMs: number;
  /** Looks in flight at once, model calls included (LOOKS_RENDER_SLOTS; app/api.ts: the machine's cores). */
  slots: number;
  /** Looks waiting for a place in flight, in all and per organization, before they are refused (LOOKS_RENDER_QUEUE). */
  maxWaiting: number;
  maxWaitingPerOwner: number;
  /**
   * The process's pool of sharp slots, shared with image delivery and match (app/api.ts). Without
   * it, a pool of its own as big as `slots` (tests).
   */
  sharpSlots?: FairSlots;
}

export class LookRenderer {
  readonly #options: LookRendererOptions;
  /** Looks in flight (renders and model calls). */
  readonly #slots: FairSlots;
  /** Sharp work, shared with the other routes' in app/api.ts. */
  readonly #sharp: FairSlots;

  constructor(options: LookRendererOptions) {
    this.#options = options;
    const slots = Math.max(1, options.slots);
    this.#slots = new FairSlots({ slots, perOwner: slots > 2 ? slots - 1 : slots, heavySlots: slots, maxWaiting: options.maxWaiting, maxWaitingPerOwner: options.maxWaitingPerOwner });
    this.#sharp = options.sharpSlots ?? new FairSlots({ slots, perOwner: slots, heavySlots: slots, maxWaiting: options.maxWaiting, maxWaitingPerOwner: options.maxWaiting });
  }

  get hasModel(): boolean {
    return this.#options.model !== null;
  }

  /** Looks in flight and waiting for a place (not the sharp slots: those are the pool's). */
  get counts() {
    return this.#slots.counts;
  }

  /** `owner`: the organization. */
  draw(owner: string, look: LookDrawing, abandoned?: AbortSignal): Promise<DrawnLook> {
    return this.#slots.run(owner, false, () => this.#draw(organizationOwner(owner), look, abandoned), abandoned);
  }

  /** Looks waiting for a place are told to come back; a shared sharp pool is its owner's to close. */
  close(): void {
    this.#slots.close();
    if (!this.#options.sharpSlots) this.#sharp.close();
  }

  async #draw(sharpOwner: string, look: LookDrawing, abandoned?: AbortSignal): Promise<DrawnLook> {
    const top = labelBand(look.height, look.label);
    const regions = layoutLook({ width: look.width, height: look.height, top, slots: look.items.map((item) => item.slot) });
    // Read from the store before a sharp slot is taken: waiting for bytes holds no core.
    const photos = await Promise.all(look.items.map((item) => this.#photo(item.photoKey)));
    const offline = await this.#sharp.run(
      sharpOwner,
      false,
      () =>
        composeLook({
          width: look.width,
          height: look.height,
          label: look.label,
          top,
          tiles: look.items.map((item, i) => ({ photo: photos[i]!, colour: item.colour, name: item.name, caption: item.caption, rect: regions[i]! })),
        }),
      abandoned,
    );
    const answer = (source: DrawnLook['source'], bytes: Buffer, fallbackReason: string | null): DrawnLook => ({ bytes, contentType: 'image/jpeg', source, fallbackReason, regions, photos: offline.photos });
    const model = this.#options.model;
    if (!model) return answer('offline', offline.bytes, null);
    try {
      const drawn = await this.#withDeadline((signal) =>
        model.draw({
          prompt: lookPrompt(look),
          images: [{ bytes: offline.bytes, contentType: 'image/jpeg', name: 'look.jpg' }, ...(look.userPhoto ? [{ bytes: look.userPhoto, contentType: 'image/jpeg' as const, name: 'shopper.jpg' }] : [])],
          signal,
        }), abandoned);
      // Fitting the model's picture is sharp work too. Refused there (the pool full), the offline
      // picture answers with the reason, as when the model fails: the model's work is done already.
      return answer('model', await this.#sharp.run(sharpOwner, false, () => fitted(drawn, look.width, look.height), abandoned), null);
    } catch (error) {
      return answer('offline', offline.bytes, error instanceof Error ? error.message : String(error));
    }
  }

  /** The call, stopped (and its promise given up) once the timeout passes or the shopper leaves. */
  async #withDeadline<T>(call: (signal: AbortSignal) => Promise<T>, abandoned?: AbortSignal): Promise<T> {
    const timeoutMs = this.#options.modelTimeoutMs;
    const deadline = new AbortController();
    const signal = abandoned ? AbortSignal.any([deadline.signal, abandoned]) : deadline.signal;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`the image model did not answer within ${timeoutMs / 1000} s`);
        deadline.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      return await Promise.race([call(signal), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A stored photo's bytes, or null (none, gone, or over the size bound: the item is drawn as a swatch). */
  async #photo(key: string | null): Promise<Buffer | null> {
    if (!key) return null;
    try {
      const head = await this.#options.objects.head(key);
      if (!head || head.size > LOOK_PHOTO_MAX_BYTES) return null;
      return (await this.#options.objects.get(key))?.body ?? null;
    } catch {
      return null;
    }
  }
}

/** The model's picture, bounded before decoding, cropped to the look's size. */
async function fitted(bytes: Buffer, width: number, height: number): Promise<Buffer> {
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata().catch(() => {
    throw new Error('the image model answered something that is not a picture');
  });
  if (!meta.width || !meta.height || meta.width * meta.height > LOOK_PHOTO_MAX_PIXELS) throw new Error('the image model answered a picture that is too large');
  return sharp(bytes, { limitInputPixels: LOOK_PHOTO_MAX_PIXELS, failOn: 'truncated' })
    .flatten({ background: '#ffffff' })
    .resize(width, height, { fit: 'cover', position: 'attention' })
    .jpeg({ quality: 84, chromaSubsampling: '4:4:4' })
    .toBuffer()
    .catch(() => {
      throw new Error('the image model answered a picture that could not be read');
    });
}

/** What the model is asked: the first picture shows the pieces; the second, if any, the shopper. */
export function lookPrompt(look: LookDrawing): string {
  const pieces = look.items.map((item) => `- ${item.name} (${item.slot}, ${item.colourName})`).join('\n');
  return [
    look.userPhoto
      ? 'Show the person in the second image wearing this outfit, keeping their face, body and pose. The first image shows the exact pieces.'
      : 'A fashion photograph of one model wearing this outfit together. The first image shows the exact pieces.',
    'Keep every piece exactly as shown: colour, pattern, cut and details. Add nothing that is not listed.',
    `Pieces:\n${pieces}`,
    look.storePicture ? `Store's picture style: ${look.storePicture}` : '',
    look.customInstructions ? `Shopper's wishes: ${look.customInstructions}` : '',
    `A picture of ${look.width}×${look.height} pixels, plain light background, no text.`,
  ]
    .filter(Boolean)
    .join('\n\n');
}
