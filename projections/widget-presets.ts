// Read model of widget presets, one row each, listed per organization in the order they were made.
import type { WidgetPresetEvent } from '../domain/widget-preset/events.js';
import { projector } from './projector.js';

export const widgetPresets = projector<WidgetPresetEvent>({
  name: 'widget_presets',
  tables: ['widget_presets'],
  handlers: {
    WidgetPresetCreated: async (db, event) => {
      const { presetId, organizationId, name, options, at } = event.data;
      await db
        .insertInto('widget_presets')
        .values({
          preset_id: presetId,
          organization_id: organizationId,
          name,
          options: JSON.stringify(options),
          created_at: at,
          modified_at: at,
          revision: event.revision.toString(),
        })
        .onConflict((c) => c.column('preset_id').doNothing())
        .execute();
    },
  },
});
