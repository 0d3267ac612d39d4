import type { WidgetPresetEvent, WidgetPresetOptions } from './events.js';

/** Document 1's WidgetPreset. */
export interface WidgetPreset {
  id: string;
  name: string;
  options: WidgetPresetOptions;
  created: string;
  modified: string;
}

export type WidgetPresetState = (WidgetPreset & { organizationId: string }) | null;

export const initialState: WidgetPresetState = null;

export const evolve = (state: WidgetPresetState, event: WidgetPresetEvent): WidgetPresetState => {
  switch (event.type) {
    case 'WidgetPresetCreated': {
      const { presetId, organizationId, name, options, at } = event.data;
      return { id: presetId, organizationId, name, options, created: at, modified: at };
    }
    default: {
      // Exhaustive at compile time; at run time an event type this build does not know (a rolling
      // deploy) leaves the state as it was.
      const unknownEvent: never = event.type;
      void unknownEvent;
      return state;
    }
  }
};
