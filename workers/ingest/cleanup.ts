// After a dataset is deleted its read-model rows are gone at once; its photos and search vectors
// follow here, in the background (document 2: "photos … removed in the background").
import type { Kysely } from 'kysely';
import { removeOriginal } from '../../infra/images/originals.js';
import type { ObjectStore } from '../../infra/objects/port.js';

export async function removeDatasetFiles(db: Kysely<any>, objects: ObjectStore, datasetId: string): Promise<{ photos: number; vectors: number }> {
  let photos = 0;
  for (;;) {
    const rows = await db.selectFrom('stored_images').select('key').where('dataset_id', '=', datasetId).limit(500).execute();
    if (rows.length === 0) break;
    // The photos' variants go with them.
    for (const { key } of rows) await removeOriginal(objects, key);
    await db.deleteFrom('stored_images').where('key', 'in', rows.map((row) => row.key)).execute();
    photos += rows.length;
  }
  const vectors = await db.deleteFrom('item_embeddings').where('dataset_id', '=', datasetId).executeTakeFirst();
  return { photos, vectors: Number(vectors.numDeletedRows) };
}
