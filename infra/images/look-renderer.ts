// Draws a look (POST /v2/agent/looks): the offline composition of the items' stored photos
// (look-composer.ts), then, with an image model configured, the model's picture drawn from it
// (and from the shopper's photo for try-on), the offline picture standing in when the model fails
// or runs past its timeout. Each render takes one of the process's render slots (FairSlots,
// owners = organizations: past two slots one store's burst cannot take every one, and waiting
// looks are served one organization after another); the slot is held for the
// model call too, so renders in flight stay bounded whatever the model does. Past the waiting
// line's bounds a render is refused (ImagesBusy / WaitingLineFull: the route's 503).
import sharp from 'sharp';
import type { Slot } from '../../domain/catalogue/vocabulary.js';
import { layoutLook, type Rect } from '../../domain/looks/layout.js';
import type { ObjectStore } from '../objects/port.js';
import type { ImageModel } from '../models/image-model.js';
import { FairSlots } from './fair-slots.js';
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
  /** Renders at once (default: the machine's cores). */
  slots: number;
  /** Renders waiting for a slot, in all and per organization, before they are refused. */
  maxWaiting: number;
  maxWaitingPerOwner: number;
}

export class LookRenderer {
  readonly #options: LookRendererOptions;
  readonly #slots: FairSlots;

  constructor(options: LookRendererOptions) {
    this.#options = options;
    const slots = Math.max(1, options.slots);
    this.#slots = new FairSlots({ slots, perOwner: slots > 2 ? slots - 1 : slots, heavySlots: slots, maxWaiting: options.maxWaiting, maxWaitingPerOwner: options.maxWaitingPerOwner });
  }

  get hasModel(): boolean {
    return this.#options.model !== null;
  }

  get counts() {
    return this.#slots.counts;
  }

  draw(owner: string, look: LookDrawing, abandoned?: AbortSignal): Promise<DrawnLook> {
    return this.#slots.run(owner, false, () => this.#draw(look, abandoned), abandoned);
  }

  close(): void {
    this.#slots.close();
  }

  async #draw(look: LookDrawing, abandoned?: AbortSignal): Promise<DrawnLook> {
    const top = labelBand(look.height, look.label);
    const regions = layoutLook({ width: look.width, height: look.height, top, slots: look.items.map((item) => item.slot) });
    const photos = await Promise.all(look.items.map((item) => this.#photo(item.photoKey)));
    const offline = await composeLook({
      width: look.width,
      height: look.height,
      label: look.label,
      top,
      tiles: look.items.map((item, i) => ({ photo: photos[i]!, colour: item.colour, name: item.name, caption: item.caption, rect: regions[i]! })),
    });
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
      return answer('model', await fitted(drawn, look.width, look.height), null);
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
