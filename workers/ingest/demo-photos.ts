// The demo catalogue's photos are drawn, not downloaded: its `stylist-demo:` sources resolve here,
// and everything else about them (normalising, storing, labelling) is the merchant path.
import { DEMO_PHOTO_SCHEME, generateDemoCatalogue } from '../../domain/demo-catalogue/generate.js';
import { demoPhotoSource } from '../../infra/demo-photos/render.js';
import type { LocalPhotoSource } from './photos.js';

let source: ((src: string) => Promise<Buffer | null>) | null = null;

export const demoPhotos: LocalPhotoSource = async (src) => {
  if (!src.startsWith(DEMO_PHOTO_SCHEME)) return null;
  const resolve = (source ??= demoPhotoSource(generateDemoCatalogue()));
  return resolve(src);
};
