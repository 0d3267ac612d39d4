// The demo organization's catalogue: the project's own generated store (no public data), loaded
// through the same dataset and upload commands as a merchant's and ingested by the same worker.
// Idempotent: the dataset has a fixed id, and products already stored come back `unchanged`.
import type { Kysely } from 'kysely';
import { v5 as uuidv5 } from 'uuid';
import { DEMO_ORGANIZATION_ID } from '../domain/demo.js';
import { DEMO_STORE, generateDemoCatalogue } from '../domain/demo-catalogue/generate.js';
import type { CommandMeta } from '../domain/metadata.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { comparePositions } from '../infra/eventstore/position.js';
import type { WorkQueue } from '../infra/queue/port.js';
import { activateDataset, createDataset, datasetIdFor } from './datasets.js';
import { uploadItems } from './items.js';

const DEMO_NAMESPACE = '7d3e9f1a-2b4c-4d5e-8f6a-9b0c1d2e3f40';
/** Fixed, so every start (and every API process) finds the same dataset. */
const DEMO_CORRELATION_ID = uuidv5('demo-catalogue', DEMO_NAMESPACE);
export const DEMO_DATASET_ID = datasetIdFor(DEMO_CORRELATION_ID);

export interface DemoSeeded {
  datasetId: string;
  products: number;
  queued: number;
  unchanged: number;
  /** Where the last event landed, for read-your-writes; null when nothing changed. */
  position: Position | null;
}

/** `count`: the catalogue's first products only (a smaller demo loads sooner); the same products and photos as in the whole. */
export async function seedDemoCatalogue(deps: { store: EventStore; db: Kysely<any>; queue: WorkQueue; waitFor(position: Position): Promise<void> }, now = new Date().toISOString(), count?: number): Promise<DemoSeeded> {
  const meta = (step: string): CommandMeta => ({ now, actor: { kind: 'system', id: 'demo' }, correlationId: step === 'create' ? DEMO_CORRELATION_ID : `${DEMO_CORRELATION_ID}/${step}` });
  const organizationId = DEMO_ORGANIZATION_ID;
  const domain = new URL(DEMO_STORE.url).hostname;
  const created = await createDataset(
    deps.store,
    {
      organizationId,
      content: {
        name: `${DEMO_STORE.name} (demo)`,
        description: 'A store the service makes up for demos: every slot, colour, price band and gender, with sales and sold-out sizes.',
        config: { storeUrl: DEMO_STORE.url, storeDomain: domain, storeName: DEMO_STORE.name, currency: DEMO_STORE.currency, targetGender: null },
        autoPublish: true,
      },
    },
    meta('create'),
  );
  const activated = await activateDataset(deps.store, { organizationId, datasetId: DEMO_DATASET_ID }, meta('activate'));
  // The upload reads the item read model to tell new from unchanged: it must have the dataset.
  const settled = [created.position, activated.position].filter((p): p is Position => p !== null).sort(comparePositions).at(-1);
  if (settled) await deps.waitFor(settled);

  // A prefix of the whole catalogue, not a smaller draw: the ingest worker draws each photo from the
  // whole catalogue by SKU, and the first products already span every template.
  const products = generateDemoCatalogue().slice(0, count);
  const outcome = await uploadItems(
    { store: deps.store, db: deps.db, queue: deps.queue },
    { organizationId, datasetId: DEMO_DATASET_ID, storeUrl: DEMO_STORE.url, shape: 'items', entries: products.map((product) => product.input) },
    // One correlation per catalogue version: a changed generator queues again, an unchanged one appends nothing.
    meta(`upload/${now}`),
  );
  if (outcome.failures.length) throw new Error(`demo catalogue: ${outcome.failures.length} products refused, first: ${outcome.failures[0]!.error}`);
  const position = [settled ?? null, outcome.position].filter((p): p is Position => p !== null).sort(comparePositions).at(-1) ?? null;
  return { datasetId: DEMO_DATASET_ID, products: products.length, queued: outcome.summary.queued, unchanged: outcome.summary.unchanged, position };
}
