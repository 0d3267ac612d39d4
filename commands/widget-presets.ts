import { v5 as uuidv5 } from 'uuid';
import type { CommandMeta } from '../domain/metadata.js';
import { widgetPresetDecider, widgetPresetStream, type WidgetPresetFields } from '../domain/widget-preset/index.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { handleCommand } from './handle.js';

// Namespace of preset ids derived from a request's correlation id (uuid v5).
const PRESET_ID_NAMESPACE = '8d0f3a6e-2c4b-4f7e-b1a9-5e6c7d8f9a02';

/**
 * One request, one preset: a retry carrying the same Idempotency-Key has the same correlation id,
 * so even one that slips past the key table lands on the stream the first attempt created.
 */
export const presetIdFor = (correlationId: string): string => uuidv5(correlationId, PRESET_ID_NAMESPACE);

export async function createWidgetPreset(
  store: EventStore,
  input: { organizationId: string; fields: WidgetPresetFields },
  meta: CommandMeta,
): Promise<{ presetId: string; position: Position }> {
  const presetId = presetIdFor(meta.correlationId);
  const { position } = await handleCommand(store, widgetPresetDecider, { type: 'CreateWidgetPreset', data: { presetId, ...input } }, meta);
  if (position) return { presetId, position };
  // A retry appended nothing; the caller still needs the read model to have the first attempt's
  // event before answering, and that attempt may have failed before its projection caught up.
  const created = (await store.readStream(widgetPresetStream(presetId))).at(-1);
  if (!created) throw new Error(`widget preset ${presetId}: nothing appended and no stream`);
  return { presetId, position: created.position };
}
