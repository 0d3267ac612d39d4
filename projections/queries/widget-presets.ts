import type { Kysely } from 'kysely';
import type { WidgetPresetOptions } from '../../domain/widget-preset/events.js';
import type { WidgetPreset } from '../../domain/widget-preset/state.js';
import { iso, json, isUuid } from './rows.js';

/** Document 1 §Limits: a list returns at most 200 presets. */
export const WIDGET_PRESET_LIST_LIMIT = 200;


const COLUMNS = ['preset_id', 'name', 'options', 'created_at', 'modified_at'] as const;

const presetOf = (row: { preset_id: string; name: string; options: unknown; created_at: Date | string; modified_at: Date | string }): WidgetPreset => ({
  id: row.preset_id,
  name: row.name,
  options: json<WidgetPresetOptions>(row.options),
  created: iso(row.created_at),
  modified: iso(row.modified_at),
});

/** The organization's presets, oldest first. */
export async function listWidgetPresets(db: Kysely<any>, organizationId: string, limit = WIDGET_PRESET_LIST_LIMIT): Promise<WidgetPreset[]> {
  if (!isUuid(organizationId)) return [];
  const rows = await db
    .selectFrom('widget_presets')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('sequence')
    .limit(limit)
    .execute();
  return rows.map(presetOf);
}

/** One of the organization's presets; null when it does not exist or belongs to another organization. */
export async function getWidgetPreset(db: Kysely<any>, organizationId: string, presetId: string): Promise<WidgetPreset | null> {
  if (!isUuid(organizationId) || !isUuid(presetId)) return null;
  const row = await db
    .selectFrom('widget_presets')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('preset_id', '=', presetId)
    .executeTakeFirst();
  return row ? presetOf(row) : null;
}

/** The preset changed most recently: the widget's theme when no themeId is given (document 1). */
export async function latestWidgetPreset(db: Kysely<any>, organizationId: string): Promise<WidgetPreset | null> {
  if (!isUuid(organizationId)) return null;
  const row = await db
    .selectFrom('widget_presets')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('modified_at', 'desc')
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? presetOf(row) : null;
}
