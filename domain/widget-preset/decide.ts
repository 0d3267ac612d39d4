import { Conflict, Invalid } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { WidgetPresetEvent } from './events.js';
import { presetContent, presetFieldProblems, PRESET_VALIDATION_FAILED, type WidgetPresetFields } from './fields.js';
import type { WidgetPresetState } from './state.js';

export type WidgetPresetCommand = { type: 'CreateWidgetPreset'; data: { presetId: string; organizationId: string; fields: WidgetPresetFields } };

/** Document 2's 422: one wrong field speaks for itself, several are `Validation failed.` */
const checkFields = (fields: WidgetPresetFields): void => {
  const problems = presetFieldProblems(fields);
  const [first, ...others] = Object.values(problems);
  if (first === undefined) return;
  throw others.length === 0 ? new Invalid(first) : new Invalid(PRESET_VALIDATION_FAILED, problems);
};

export const decide = (command: WidgetPresetCommand, state: WidgetPresetState, meta: CommandMeta): WidgetPresetEvent[] => {
  switch (command.type) {
    case 'CreateWidgetPreset': {
      const { presetId, organizationId, fields } = command.data;
      // The id comes from the request's correlation id: finding the preset already there means
      // this is a retry of the request that made it, which must not make another.
      if (state) {
        if (state.organizationId === organizationId) return [];
        throw new Conflict(`Widget preset '${presetId}' already exists.`);
      }
      checkFields(fields);
      return [{ type: 'WidgetPresetCreated', data: { presetId, organizationId, ...presetContent(fields), at: meta.now } }];
    }
    default: {
      const unknown: never = command.type;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
