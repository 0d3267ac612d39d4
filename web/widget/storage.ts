// The conversation kept between page loads: the agent's `done.history` (sent back with the next
// message) and a compact transcript to draw the conversation again. Per public key, in memory,
// sessionStorage or localStorage; bounded, and a storage that refuses (private mode, quota) only
// costs the memory of the conversation, never an error.
import type { HistoryEntry, StorageMode } from './types.js';

/** A product card as kept in the transcript: what drawing the card needs, nothing more. */
export interface CardData {
  itemId: string;
  datasetId: string;
  name: string;
  price: number;
  currency: string;
  onSale: boolean;
  discount: number;
  compareAtPrice: number | null;
  url: string | null;
  image: string | null;
  store: string | null;
}

export type Entry =
  | { t: 'user'; text: string }
  | { t: 'text'; text: string }
  | { t: 'products'; kind: 'list' | 'outfit'; label: string; cards: CardData[] }
  | { t: 'look'; label: string; cards: CardData[]; customInstructions: string; basics: string[] }
  | { t: 'question'; question: string; options: string[]; chosen: string | null }
  | { t: 'receipt'; text: string; ok: boolean; image: string | null }
  | { t: 'error'; text: string }
  | { t: 'stopped' };

export interface Saved {
  history: HistoryEntry[];
  transcript: Entry[];
  suggestions: string[];
}

const MAX_ENTRIES = 80;
const memory = new Map<string, string>();

const backend = (mode: StorageMode): Pick<Storage, 'getItem' | 'setItem'> => {
  try {
    if (mode === 'local') return localStorage;
    if (mode === 'session') return sessionStorage;
  } catch {
    // storage blocked (third-party frames, privacy settings): memory instead
  }
  return { getItem: (key) => memory.get(key) ?? null, setItem: (key, value) => void memory.set(key, value) };
};

export class ConversationStore {
  private readonly key: string;
  private readonly storage: Pick<Storage, 'getItem' | 'setItem'>;

  constructor(publicKey: string, mode: StorageMode) {
    this.key = `stylist-widget:${publicKey}`;
    this.storage = backend(mode);
  }

  load(): Saved {
    try {
      const saved = JSON.parse(this.storage.getItem(this.key) ?? 'null') as Partial<Saved> | null;
      if (saved && Array.isArray(saved.history) && Array.isArray(saved.transcript)) {
        return { history: saved.history, transcript: saved.transcript, suggestions: Array.isArray(saved.suggestions) ? saved.suggestions : [] };
      }
    } catch {
      // unreadable: start over
    }
    return { history: [], transcript: [], suggestions: [] };
  }

  save(saved: Saved): void {
    let transcript = saved.transcript.slice(-MAX_ENTRIES);
    // On a full storage keep halving the transcript, then give up on the history too.
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        this.storage.setItem(this.key, JSON.stringify({ ...saved, transcript, history: attempt < 3 ? saved.history : [] }));
        return;
      } catch {
        transcript = transcript.slice(Math.floor(transcript.length / 2));
      }
    }
  }
}
