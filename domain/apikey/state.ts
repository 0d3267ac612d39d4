import type { KeyScope, PrivateAccess, PublicAccess } from './access.js';
import type { ApiKeyEvent, KeyCredentials } from './events.js';

export interface ApiKey {
  keyId: string;
  organizationId: string;
  name: string;
  primary: boolean;
  credentials: KeyCredentials;
  publicAccess: PublicAccess;
  privateAccess: PrivateAccess;
  scopes: KeyScope[] | null;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
}

export type ApiKeyState = ApiKey | null;

export const initialState: ApiKeyState = null;

export const evolve = (state: ApiKeyState, event: ApiKeyEvent): ApiKeyState => {
  switch (event.type) {
    case 'ApiKeyCreated': {
      const { at, ...key } = event.data;
      return { ...key, deleted: false, createdAt: at, updatedAt: at };
    }
    case 'ApiKeyRotated':
      return state && { ...state, credentials: event.data.credentials, updatedAt: event.data.at };
    case 'ApiKeyDeleted':
      return state && { ...state, deleted: true, updatedAt: event.data.at };
    default: {
      // Exhaustive at compile time; at run time an event type this build does not know (a rolling
      // deploy) leaves the state as it was.
      const unknownEvent: never = event;
      void unknownEvent;
      return state;
    }
  }
};
