// Read model of data sources, one row each; a deleted dataset takes its sources with it. Whether a
// source is active also depends on its dataset (an archived dataset switches them off), which
// queries join in.
import type { DatasetEvent } from '../domain/dataset/events.js';
import type { SourceEvent } from '../domain/source/events.js';
import { projector } from './projector.js';

type Data<T extends SourceEvent['type']> = Extract<SourceEvent, { type: T }>['data'];
const COLUMNS = { endpoint: 'endpoint', syncPeriod: 'sync_period', status: 'status' } as const;

export const dataSources = projector('data_sources', ['data_sources'], {
  SourceCreated: async (db, event) => {
    const { sourceId, datasetId, organizationId, sourceType, endpoint, syncPeriod, status, at } = event.data as unknown as Data<'SourceCreated'>;
    await db
      .insertInto('data_sources')
      .values({ source_id: sourceId, dataset_id: datasetId, organization_id: organizationId, type: sourceType, status, endpoint, sync_period: syncPeriod, created_at: at, updated_at: at })
      .execute();
  },
  SourceUpdated: async (db, event) => {
    const { sourceId, changes, at } = event.data as Data<'SourceUpdated'>;
    const set: Record<string, unknown> = { updated_at: at };
    for (const [field, value] of Object.entries(changes)) set[COLUMNS[field as keyof typeof COLUMNS]] = value;
    await db.updateTable('data_sources').set(set).where('source_id', '=', sourceId).execute();
  },
  SourceDeleted: async (db, event) => {
    await db.deleteFrom('data_sources').where('source_id', '=', (event.data as Data<'SourceDeleted'>).sourceId).execute();
  },
  DatasetDeleted: async (db, event) => {
    const { datasetId } = event.data as Extract<DatasetEvent, { type: 'DatasetDeleted' }>['data'];
    await db.deleteFrom('data_sources').where('dataset_id', '=', datasetId).execute();
  },
});
