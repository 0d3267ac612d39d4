import type { Decider } from '../decider.js';
import { decide, type WidgetPresetCommand } from './decide.js';
import { widgetPresetStream, type WidgetPresetEvent } from './events.js';
import { evolve, initialState, type WidgetPresetState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './fields.js';
export * from './state.js';

export const widgetPresetDecider: Decider<WidgetPresetCommand, WidgetPresetEvent, WidgetPresetState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => widgetPresetStream(command.data.presetId),
};
