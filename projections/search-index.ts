// The search read model: what `POST /v1/search` retrieves from. One row per item, made when it is
// first queued (so its origin, the source that brought it, is known) and filled when it is
// processed: labelled attributes as columns, the stored price and variants, the answer body a result
// shows (domain/item/record.ts `answerBody`), and a weighted full-text document (its fields and their
// weights: domain/search/document.ts).
// Rebuilt by replay like every read model; vectors are not copied here (they live in
// item_embeddings, derived) but every change moves `change_seq`, which the search memory follows.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatasetEvent } from '../domain/dataset/events.js';
import type { ItemEvent, ItemProcessed } from '../domain/item/events.js';
import { answerBody } from '../domain/item/record.js';
import { documentFields } from '../domain/search/document.js';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { projector, type TypedHandlers } from './projector.js';

type Handled = Extract<ItemEvent, { type: 'ItemQueued' | 'ItemProcessed' | 'ItemCommerceUpdated' | 'ItemStatusChanged' }> | Extract<DatasetEvent, { type: 'DatasetDeleted' }>;
type Recorded<T extends Handled['type']> = RecordedEvent<Extract<Handled, { type: T }>>;

const NEXT_CHANGE = sql`nextval('search_documents_changes')`;

const queue = async (db: Kysely<any>, events: ReadonlyArray<Recorded<'ItemQueued'>>): Promise<void> => {
  if (!events.length) return;
  await db
    .insertInto('search_documents')
    .values(
      events.map(({ data }) => ({
        item_id: data.itemId,
        dataset_id: data.datasetId,
        organization_id: data.organizationId,
        source_id: data.sourceId ?? null,
        status: 'queued',
        queued_at: data.at,
      })),
    )
    // The last writer owns the item (as in catalogue_items): a merchant's upload takes it from a sync.
    .onConflict((c) => c.column('item_id').doUpdateSet((eb) => ({ source_id: eb.ref('excluded.source_id'), queued_at: eb.ref('excluded.queued_at') })))
    .execute();
};

const processedRow = (data: ItemProcessed['data']): RawBuilder<unknown> => {
  const { listing, labels } = data;
  const [a, b, c, d] = documentFields(data);
  return sql`(${data.itemId}::uuid, ${data.datasetId}::uuid, ${data.organizationId}::uuid, ${data.status}::text, ${listing.name}::text, ${listing.brand}::text,
    ${labels.slot}::text, ${labels.family}::text, ${labels.gender}::text, ${labels.age_group}::text, ${labels.color_family}::text, ${labels.colors}::text[],
    ${labels.pattern}::text, ${labels.material}::text[], ${labels.fit}::text, ${labels.featureKeys}::text[], ${listing.price}::float8, ${data.currency}::text,
    ${JSON.stringify(listing.variants)}::jsonb, ${JSON.stringify(answerBody(data))}::text, ${data.at}::timestamptz,
    setweight(to_tsvector('english', ${a}::text), 'A') || setweight(to_tsvector('english', ${b}::text), 'B') ||
    setweight(to_tsvector('english', ${c}::text), 'C') || setweight(to_tsvector('english', ${d}::text), 'D'))`;
};

const process = async (db: Kysely<any>, events: ReadonlyArray<Recorded<'ItemProcessed'>>): Promise<void> => {
  if (!events.length) return;
  // An item processed without a queued row (events from before this read model, replayed in any
  // order) still gets one: queued_at then falls back to the processing time.
  await sql`
    insert into search_documents (item_id, dataset_id, organization_id, status, name, brand, slot, family, gender, age_group, color_family, colors,
      pattern, material, fit, feature_keys, price, currency, variants, body, queued_at, document)
    values ${sql.join(events.map((event) => processedRow(event.data)))}
    on conflict (item_id) do update set
      status = excluded.status, name = excluded.name, brand = excluded.brand, slot = excluded.slot, family = excluded.family, gender = excluded.gender,
      age_group = excluded.age_group, color_family = excluded.color_family, colors = excluded.colors, pattern = excluded.pattern, material = excluded.material,
      fit = excluded.fit, feature_keys = excluded.feature_keys, price = excluded.price, currency = excluded.currency, variants = excluded.variants,
      body = excluded.body, document = excluded.document, queued_at = search_documents.queued_at, change_seq = ${NEXT_CHANGE}`.execute(db);
};

const handlers: TypedHandlers<Handled> = {
  ItemQueued: (db, event) => queue(db, [event]),
  ItemProcessed: (db, event) => process(db, [event]),
  ItemCommerceUpdated: async (db, event) => {
    const { itemId, price, currency, variants } = event.data;
    await db
      .updateTable('search_documents')
      .set({ price, currency, variants: JSON.stringify(variants), change_seq: NEXT_CHANGE })
      .where('item_id', '=', itemId)
      .where('name', 'is not', null)
      .execute();
  },
  ItemStatusChanged: async (db, event) => {
    const { itemId, status } = event.data;
    // A status change before the item was ever processed stays invisible: the row keeps `queued`.
    await db.updateTable('search_documents').set({ status, change_seq: NEXT_CHANGE }).where('item_id', '=', itemId).where('name', 'is not', null).execute();
  },
  DatasetDeleted: async (db, event) => {
    await db.deleteFrom('search_documents').where('dataset_id', '=', event.data.datasetId).execute();
  },
};

type Batched = Recorded<'ItemQueued' | 'ItemProcessed'>;
const isBatched = (event: RecordedEvent<Handled>): event is Batched => event.type === 'ItemQueued' || event.type === 'ItemProcessed';

export const searchIndex = projector<Handled>({
  name: 'search_index',
  tables: ['search_documents'],
  handlers,
  // Runs of one batched type go as one statement (an item twice in a run splits it); others in order.
  applyBatch: async (db, events) => {
    let run: Batched[] = [];
    let ids = new Set<string>();
    const flush = async () => {
      if (run.length) await (run[0]!.type === 'ItemQueued' ? queue(db, run as Array<Recorded<'ItemQueued'>>) : process(db, run as Array<Recorded<'ItemProcessed'>>));
      run = [];
      ids = new Set();
    };
    for (const event of events) {
      if (isBatched(event)) {
        if (run.length && (run[0]!.type !== event.type || ids.has(event.data.itemId))) await flush();
        run.push(event);
        ids.add(event.data.itemId);
        continue;
      }
      await flush();
      await (handlers[event.type] as ((db: Kysely<any>, event: RecordedEvent<Handled>) => Promise<unknown>) | undefined)?.(db, event);
    }
    await flush();
  },
});
