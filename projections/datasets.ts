// Read model of datasets: one row each, the full record of document 1 plus styling and sizing.
// A deleted dataset's row goes; its items go with it (catalogue-items.ts).
import type { DatasetEvent } from '../domain/dataset/events.js';
import { projector } from './projector.js';

const version = (revision: bigint) => Number(revision) + 1;

const CONTENT_COLUMNS = { name: 'name', description: 'description', metadata: 'metadata', config: 'config', autoPublish: 'auto_publish' } as const;
const JSON_FIELDS = new Set(['metadata', 'config']);

export const datasets = projector<DatasetEvent>({
  name: 'datasets',
  tables: ['datasets'],
  handlers: {
    DatasetCreated: async (db, event) => {
      const { datasetId, organizationId, name, description, metadata, config, autoPublish, at } = event.data;
      await db
        .insertInto('datasets')
        .values({
          dataset_id: datasetId,
          organization_id: organizationId,
          status: 'draft',
          name,
          description,
          metadata: metadata === undefined ? null : JSON.stringify(metadata),
          config: JSON.stringify(config),
          auto_publish: autoPublish,
          created_at: at,
          updated_at: at,
          version: version(event.revision),
        })
        .execute();
    },
    DatasetUpdated: async (db, event) => {
      const { datasetId, changes, at } = event.data;
      const set: Record<string, unknown> = { updated_at: at, version: version(event.revision) };
      for (const [field, value] of Object.entries(changes)) {
        const column = CONTENT_COLUMNS[field as keyof typeof CONTENT_COLUMNS];
        if (column) set[column] = JSON_FIELDS.has(field) ? JSON.stringify(value) : value;
      }
      await db.updateTable('datasets').set(set).where('dataset_id', '=', datasetId).execute();
    },
    DatasetActivated: async (db, event) => {
      const { datasetId, at } = event.data;
      await db.updateTable('datasets').set({ status: 'active', updated_at: at, version: version(event.revision) }).where('dataset_id', '=', datasetId).execute();
    },
    DatasetArchived: async (db, event) => {
      const { datasetId, at } = event.data;
      await db.updateTable('datasets').set({ status: 'archived', updated_at: at, version: version(event.revision) }).where('dataset_id', '=', datasetId).execute();
    },
    DatasetDeleted: async (db, event) => {
      const { datasetId } = event.data;
      await db.deleteFrom('datasets').where('dataset_id', '=', datasetId).execute();
    },
    DatasetStylingReplaced: async (db, event) => {
      const { datasetId, styling, sizing } = event.data;
      // Styling changes are not edits of the dataset record: updatedAt stays.
      await db
        .updateTable('datasets')
        .set({ version: version(event.revision), ...(styling ? { styling: JSON.stringify(styling) } : {}), ...(sizing ? { sizing: JSON.stringify(sizing) } : {}) })
        .where('dataset_id', '=', datasetId)
        .execute();
    },
  },
});
