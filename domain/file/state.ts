import type { FileEvent, FileUploaded } from './events.js';

/** A stored file, or null before its upload was recorded. */
export type FileState = FileUploaded['data'] | null;

export const initialState: FileState = null;

export const evolve = (state: FileState, event: FileEvent): FileState => {
  switch (event.type) {
    case 'FileUploaded':
      return event.data;
    default: {
      // Exhaustive at compile time; an event type a newer build wrote leaves the state alone.
      const unknownEvent: never = event.type;
      void unknownEvent;
      return state;
    }
  }
};
