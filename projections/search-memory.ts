// The searchable catalogue held in this process: per dataset, every active item's labelled
// attributes, its full-text lexemes (read from the weighted `document` of search_documents, so the
// stemming is Postgres's own) in an inverted index, attribute postings, and its embedding in an
// HNSW graph (search-memory/dataset.ts). A dataset is loaded the first time it is searched (or at
// start-up, as far as the budget goes), and kept current by following `search_documents` by
// `change_seq`: every process follows the same table, so a second API process sees what the first
// projected, and a rebuild of the read model reads as a stream of fresh changes.
//
// Why in memory: Postgres full text cannot rank by an index (`ts_rank` reads every matching row),
// and with four legs a query cost ~40 ms of database CPU at 10,000 items, ~34 searches a second on
// two cores (bench/search.ts, 2026-11-26). Held here, retrieval and ranking are array walks over
// postings; the database is asked only for what must be exact at answer time (stock, market
// prices, whether an item is still active).
//
// What it is not: the source of truth. The search checks every result it shows against the read
// model (status and scope), so a memory a moment behind can never show an archived item; a search
// first catches up when the read model's head has moved, so what was projected before the request
// is searchable by it.
//
// Bounded (SEARCH_MEMORY_MB): past the budget the least recently searched datasets are dropped and
// load again on their next search. A load reads the dataset's saved copy from the object store
// (search-memory/snapshot.ts) and the changes made since, or builds it from the read model and
// then saves a copy for the next process; each dataset keeps its own cursor, so one that leaves
// and comes back is caught up from where its copy stands, whatever the others did meanwhile.
import type { Kysely } from 'kysely';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import type { ObjectStore } from '../infra/objects/port.js';
import type { VectorMatch } from '../infra/vectors/hnsw.js';
import { DatasetMemory, type HeldValues, type MemoryDoc, type WordLexemes } from './search-memory/dataset.js';
import { Lexicon } from './search-memory/lexicon.js';
import { buildDataset, restoreDataset } from './search-memory/load.js';
import { applyRow, readChanges, readDatasetStatus, readTexts } from './search-memory/rows.js';
import { earlierSnapshotKeys, encodeSnapshot, snapshotKey } from './search-memory/snapshot.js';

export { byItemId, DatasetMemory, type AttributeTest, type HeldValues, type DocFields, type MemoryDoc, type Postings, type WordLexemes } from './search-memory/dataset.js';
export { Lexicon, parseDocument, quotedLexemes } from './search-memory/lexicon.js';

/** Where the memory tells what it did: a pino logger will do. */
export interface SearchMemoryLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  debug?(details: object, message: string): void;
}

export interface SearchMemoryOptions {
  onError?: (error: unknown) => void;
  /** Bytes the loaded datasets may hold, by `DatasetMemory.memoryBytes` (SEARCH_MEMORY_MB); unbounded when absent. */
  budgetBytes?: number;
  /** Where datasets' saved copies are kept; without it every load builds from the read model and nothing is saved. */
  snapshots?: ObjectStore | null;
  log?: SearchMemoryLog;
}

/** The read models a dataset's leaving must have reached before it is dropped a second time (`staleBy`). */
export const SEARCH_MEMORY_READ_MODELS = ['datasets'] as const;

/** A dataset's graph is rebuilt once it holds more tombstones than this and than live vectors. */
const TOMBSTONES_BEFORE_RELOAD = 1000;
/** Changes applied since its copy was saved or read after which a dataset's copy is saved again: this many, or a tenth of its items if more. */
const CHANGES_BEFORE_SAVE = 500;
/** Scopes remembered for `lastScope` (their keys at most 1,000 characters, their datasets at most 100): a few MB at most. */
const SCOPES_KEPT = 1000;

interface Entry {
  datasetId: string;
  organizationId: string | null;
  memory: DatasetMemory;
  ready: Promise<void>;
  loaded: boolean;
  /** Every change of the dataset up to this one is in `memory` (once loaded). */
  cursor: bigint;
  /** When it was last asked for by a search (a count, not a clock); 0 for a dataset only warmed. */
  lastSearched: number;
  /** Searches waiting for it in `ready`: it is not evicted under them. */
  searching: number;
  /** Changes applied since its copy was last saved or read. */
  changesSinceSaved: number;
  /** When its load finished (ms since the epoch); unset until then. */
  loadedAt?: number;
}

/**
 * A dataset dropped for the budget this soon after it was loaded means the datasets being searched
 * do not fit: every search may be loading what the last one dropped. Said at most once a WARN_EVERY_MS.
 */
const RELOADED_WITHIN_MS = 60_000;
const WARN_EVERY_MS = 10 * 60_000;

/** How a dataset came into memory, for the log and the benchmark. */
export interface LoadReport {
  datasetId: string;
  how: 'snapshot' | 'built';
  items: number;
  ms: number;
  /** Changes applied after the saved copy's cursor. */
  changes: number;
  /** Why a saved copy was not used, when there was one. */
  distrusted?: string;
}

/** What /readyz shows of a process's search memory: what it holds against its budget, and what it did since it started. */
export interface SearchMemoryReport {
  datasets: number;
  items: number;
  heldMb: number;
  /** SEARCH_MEMORY_MB; null when unbounded. */
  budgetMb: number | null;
  /** Datasets loaded from their saved copy, and built from the read model. */
  restored: number;
  built: number;
  /** Dropped for the budget, and of those, dropped within a minute of their load: a count that keeps growing means the datasets searched do not fit (thrash). */
  evicted: number;
  evictedSoonAfterLoad: number;
}

export class SearchMemory {
  readonly lexicon = new Lexicon();
  /** Counted since the process started, for `report`. */
  readonly #counts = { restored: 0, built: 0, evicted: 0, evictedSoonAfterLoad: 0 };
  private readonly datasets = new Map<string, Entry>();
  /** Each scope's datasets as last resolved (`lastScope`), the least recently resolved first. */
  private readonly scopes = new Map<string, readonly string[]>();
  private following: Promise<void> | null = null;
  private readonly reloading = new Set<string>();
  /** Copies on their way to the object store, by dataset (one at a time each); close() waits for them. */
  private readonly saves = new Map<string, Promise<void>>();
  private readonly toldTooLarge = new Set<string>();
  /** Datasets dropped for the budget within RELOADED_WITHIN_MS of their load, since the last warning. */
  private droppedSoon = 0;
  private warnedSmallAt = -Infinity;
  private readonly budget: number;
  private readonly onClose: Array<() => void> = [];
  private searches = 0;
  private closed = false;
  /** The last loads, newest last (for the benchmark and tests). */
  readonly loads: LoadReport[] = [];

  private readonly db: Kysely<any>;
  private readonly options: SearchMemoryOptions;
  constructor(
    db: Kysely<any>,
    options: SearchMemoryOptions = {},
  ) {
    this.db = db;
    this.options = options;
    this.budget = options.budgetBytes ?? Infinity;
  }

  /**
   * The datasets' memories, loaded and caught up with the read model as of `head` (its
   * max(change_seq), read by the caller with its scope): what was projected before the search
   * started is in them. None of them is evicted while this waits; once it returns, the search
   * holds its own reference to each.
   */
  async ready(datasetIds: readonly string[], head: bigint | null): Promise<DatasetMemory[]> {
    const entries = datasetIds.map((id) => this.entry(id));
    for (const entry of entries) {
      entry.searching++;
      entry.lastSearched = ++this.searches;
    }
    try {
      await Promise.all(entries.map((entry) => entry.ready));
      // A run already under way may have started before `head`: then one more. A dataset dropped
      // meanwhile (archived, deleted) is not waited for.
      while (head !== null && !this.closed && entries.some((entry) => this.holds(entry) && entry.cursor < head)) await this.follow(head);
      return entries.map((entry) => entry.memory);
    } finally {
      for (const entry of entries) entry.searching--;
      this.evict();
    }
  }

  /** The ids of the lexemes held that match any of `forms`: the lexeme itself, or every lexeme it begins. */
  lexemeIds(forms: ReadonlyArray<{ lexeme: string; prefix: boolean }>): WordLexemes {
    const ids = new Set<number>();
    for (const { lexeme, prefix } of forms) {
      if (prefix) for (const id of this.lexicon.withPrefix(lexeme)) ids.add(id);
      else {
        const id = this.lexicon.find(lexeme);
        if (id !== undefined) ids.add(id);
      }
    }
    return [...ids];
  }

  /** The nearest active items of the given datasets, best first. */
  nearest(memories: readonly DatasetMemory[], vector: ArrayLike<number>, k: number): Array<VectorMatch & { doc: MemoryDoc }> {
    const query = vector instanceof Float32Array ? vector : Float32Array.from(vector);
    // With several graphs, each holds on average a share of the k best, and a beam of k is already
    // several times that share: searched as deep as one graph is, seven datasets cost 1.5 to 1.8 ms
    // a query at 100,000 items, at k 0.8 ms (docs/performance.md).
    const depth = memories.length > 1 ? k : undefined;
    const lists: Array<{ memory: DatasetMemory; matches: VectorMatch[] }> = [];
    for (const memory of memories) {
      if (!memory.vectors || memory.vectors.dimensions !== query.length) continue;
      const matches = memory.vectors.nearest(query, k, depth);
      if (matches.length) lists.push({ memory, matches });
    }
    // Each dataset's list comes best first: merged by taking the best head until k are found (a
    // tie goes to the dataset listed first), not by sorting them all together, and only what is
    // taken is looked up (a match whose item left meanwhile is passed over).
    const at = new Array<number>(lists.length).fill(0);
    const merged: Array<VectorMatch & { doc: MemoryDoc }> = [];
    while (merged.length < k) {
      let best = -1;
      for (let i = 0; i < lists.length; i++) {
        if (at[i]! < lists[i]!.matches.length && (best < 0 || lists[i]!.matches[at[i]!]!.similarity > lists[best]!.matches[at[best]!]!.similarity)) best = i;
      }
      if (best < 0) break;
      const { key, similarity } = lists[best]!.matches[at[best]!++]!;
      const doc = lists[best]!.memory.docs.get(key);
      if (doc) merged.push({ key, similarity, doc });
    }
    return merged;
  }

  /**
   * The variants or answer bodies of `docs`, parsed, by item id. Each doc's text is parsed once and
   * kept parsed in its place. A doc that has none (a restored dataset's) has its read from the read
   * model, for all of them at once, and kept where the row is still the doc's version. An item the
   * read model has none for (a body from before migration 0021) is absent.
   */
  async values<F extends keyof HeldValues>(field: F, docs: readonly MemoryDoc[]): Promise<Map<string, HeldValues[F]>> {
    const values = new Map<string, HeldValues[F]>();
    const lacking: MemoryDoc[] = [];
    for (const doc of docs) {
      const held = doc[field];
      if (held === null) lacking.push(doc);
      else if (typeof held === 'string') values.set(doc.itemId, this.#keepParsed(doc, field, held, true));
      else values.set(doc.itemId, held as HeldValues[F]);
    }
    if (!lacking.length) return values;
    const read = await readTexts(this.db, field, lacking.map((doc) => doc.itemId));
    for (const doc of lacking) {
      const row = read.get(doc.itemId);
      if (!row?.text) continue;
      // A newer version's text waits for the memory to catch up with it: the doc keeps only its own.
      values.set(doc.itemId, this.#keepParsed(doc, field, row.text, row.changeSeq === doc.changeSeq));
    }
    return values;
  }

  #keepParsed<F extends keyof HeldValues>(doc: MemoryDoc, field: F, text: string, ownVersion: boolean): HeldValues[F] {
    const value = deepFreeze(JSON.parse(text)) as HeldValues[F];
    const entry = this.datasets.get(doc.datasetId);
    if (ownVersion && entry && this.holds(entry)) entry.memory.keep(doc, field, value, text.length);
    return value;
  }

  /** The datasets held (loaded), least recently searched first. */
  stats(): Array<{ datasetId: string; organizationId: string | null; items: number; bytes: number }> {
    return this.held()
      .sort((a, b) => a.lastSearched - b.lastSearched)
      .map((entry) => ({ datasetId: entry.datasetId, organizationId: entry.organizationId, items: entry.memory.docs.size, bytes: entry.memory.memoryBytes() }));
  }

  /** What it holds and what it did, for /readyz. */
  report(): SearchMemoryReport {
    const held = this.held();
    return {
      datasets: held.length,
      items: held.reduce((sum, entry) => sum + entry.memory.docs.size, 0),
      heldMb: Math.round(this.heldBytes() / 2 ** 20),
      budgetMb: Number.isFinite(this.budget) ? Math.round(this.budget / 2 ** 20) : null,
      ...this.#counts,
    };
  }

  /** Bytes the loaded datasets hold, by their estimate. */
  heldBytes(): number {
    return this.held().reduce((sum, entry) => sum + entry.memory.memoryBytes(), 0);
  }

  /**
   * Loads the active datasets now, so the first searches do not wait for them: one at a time, the
   * most recently changed first, until the budget is full.
   */
  async warm(): Promise<void> {
    const rows = await this.db.selectFrom('datasets').select('dataset_id').where('status', '=', 'active').orderBy('updated_at', 'desc').orderBy('dataset_id').execute();
    for (const row of rows) {
      if (this.closed || this.heldBytes() >= this.budget) return;
      // One that fails to load is left to its first search (onError has it).
      await this.entry(String(row.dataset_id)).ready.catch(() => {});
    }
  }

  /**
   * What a recorded event makes stale here, for an event-store follower (api/stale-follower.ts):
   * an archived or deleted dataset, or a deleted organization's datasets, are dropped at once.
   *
   * Why events and not the read models: the search read model does not say so (archiving leaves
   * search_documents as it is; a deletion removes the rows and leaves no change to follow), and
   * reading the datasets table on every search or on a timer would be late or costly. The
   * follower calls the returned function when the event arrives and again once
   * SEARCH_MEMORY_READ_MODELS have applied it, so a search that read the dataset as active just
   * before cannot load it back for good; a load also reads the dataset's row and does not keep a
   * dataset that is no longer active (`load`).
   */
  readonly staleBy = (event: Pick<RecordedEvent, 'type' | 'data'>): (() => void) | null => {
    const { datasetId, organizationId } = event.data as { datasetId?: unknown; organizationId?: unknown };
    if ((event.type === 'DatasetArchived' || event.type === 'DatasetDeleted') && typeof datasetId === 'string') {
      let deleted = false;
      return () => {
        this.forget(datasetId, event.type === 'DatasetArchived' ? 'archived' : 'deleted');
        if (event.type !== 'DatasetDeleted' || deleted) return;
        // Its saved copy goes too (an archived one's stays: activated again, it loads from it).
        deleted = true;
        const store = this.options.snapshots;
        if (store) {
          Promise.all([snapshotKey(datasetId), ...earlierSnapshotKeys(datasetId)].map((key) => store.delete(key))).catch((error: unknown) =>
            this.options.log?.warn({ err: error, datasetId }, 'a deleted dataset’s saved search memory could not be deleted'),
          );
        }
      };
    }
    if (event.type === 'OrganizationDeleted' && typeof organizationId === 'string') {
      return () => {
        for (const entry of [...this.datasets.values()]) if (entry.organizationId === organizationId) this.forget(entry.datasetId, 'organization deleted');
      };
    }
    return null;
  };

  /** Drops the dataset's memory now; a search that holds it already finishes with it. */
  forget(datasetId: string, reason = 'dropped'): void {
    const entry = this.datasets.get(datasetId);
    if (!entry) return;
    this.datasets.delete(datasetId);
    this.options.log?.debug?.({ datasetId, reason, items: entry.memory.docs.size }, 'search memory dropped a dataset');
  }

  /** Calls `stop` when the memory closes (its event-store follower's abort). */
  stopOnClose(stop: () => void): void {
    if (this.closed) stop();
    else this.onClose.push(stop);
  }

  /** Resolves once no saved copy is on its way to the object store (a benchmark measures after them). */
  async savesSettled(): Promise<void> {
    while (this.saves.size) await Promise.all([...this.saves.values()]);
  }

  /** Stops following and waits for the copies being saved, so the object store can close after it. */
  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.onClose.splice(0)) stop();
    await Promise.all([...this.saves.values()]);
  }

  /**
   * Applies every change since each loaded dataset's cursor; concurrent callers share one run.
   * `head`, read before the call, is where the cursors stand after it even when the last changes
   * were to datasets not loaded here.
   */
  follow(head: bigint | null = null): Promise<void> {
    this.following ??= this.catchUp(head)
      .catch((error) => {
        this.options.onError?.(error);
        throw error;
      })
      .finally(() => (this.following = null));
    return this.following;
  }

  /**
   * The datasets a scope (`key`: an organization's request, as `searchCatalogue` names it) last
   * resolved to, when each is loaded here and the organization's own; else null. A search
   * retrieves from them while its scope is read, and keeps that only when the scope turns out
   * the same and the memories had caught up with the head it read (`reached`).
   */
  lastScope(key: string, organizationId: string): readonly string[] | null {
    const ids = this.scopes.get(key);
    if (!ids) return null;
    for (const id of ids) {
      const entry = this.datasets.get(id);
      if (!entry || !this.holds(entry) || entry.organizationId !== organizationId) return null;
    }
    return ids;
  }

  /** What a scope resolved to, for the next search of the same (`lastScope`); the oldest forgotten past SCOPES_KEPT. */
  rememberScope(key: string, datasetIds: readonly string[]): void {
    this.scopes.delete(key);
    if (this.scopes.size >= SCOPES_KEPT) this.scopes.delete(this.scopes.keys().next().value!);
    this.scopes.set(key, datasetIds);
  }

  /**
   * The change up to which every one of `memories` (of `datasetIds`, as `ready` gave them) holds
   * its dataset, read when a search has just used them; null when one is no longer its dataset's
   * memory here (dropped or rebuilt since).
   */
  reached(datasetIds: readonly string[], memories: readonly DatasetMemory[]): bigint | null {
    let lowest: bigint | null = null;
    for (let i = 0; i < datasetIds.length; i++) {
      const entry = this.datasets.get(datasetIds[i]!);
      if (!entry || !this.holds(entry) || entry.memory !== memories[i]) return null;
      if (lowest === null || entry.cursor < lowest) lowest = entry.cursor;
    }
    return lowest;
  }

  private holds(entry: Entry): boolean {
    return entry.loaded && this.datasets.get(entry.datasetId) === entry;
  }

  private held(): Entry[] {
    return [...this.datasets.values()].filter((entry) => entry.loaded);
  }

  private entry(datasetId: string): Entry {
    let entry = this.datasets.get(datasetId);
    if (!entry) {
      const created: Entry = { datasetId, organizationId: null, memory: new DatasetMemory(), loaded: false, ready: Promise.resolve(), cursor: 0n, lastSearched: 0, searching: 0, changesSinceSaved: 0 };
      this.datasets.set(datasetId, created);
      created.ready = this.load(created).catch((error) => {
        // Searched again later, it tries again; this search fails.
        if (this.datasets.get(datasetId) === created) this.datasets.delete(datasetId);
        this.options.onError?.(error);
        throw error;
      });
      entry = created;
    }
    return entry;
  }

  private async load(entry: Entry): Promise<void> {
    const started = performance.now();
    const { datasetId } = entry;
    const [dataset, saved] = await Promise.all([readDatasetStatus(this.db, datasetId), this.readSaved(datasetId)]);
    entry.organizationId = dataset?.organizationId ?? null;
    let report: Omit<LoadReport, 'ms' | 'items'>;
    const restored = saved instanceof Buffer ? await restoreDataset(this.db, datasetId, saved, this.lexicon) : null;
    if (restored && !('distrusted' in restored)) {
      entry.memory = restored.memory;
      entry.cursor = restored.cursor;
      entry.changesSinceSaved = restored.changes;
      report = { datasetId, how: 'snapshot', changes: restored.changes };
    } else {
      const built = await buildDataset(this.db, datasetId, this.lexicon);
      entry.memory = built.memory;
      entry.cursor = built.cursor;
      report = { datasetId, how: 'built', changes: 0, ...(restored ? { distrusted: restored.distrusted } : typeof saved === 'string' ? { distrusted: saved } : {}) };
    }
    entry.loaded = true;
    entry.loadedAt = Date.now();
    this.note({ ...report, items: entry.memory.docs.size, ms: Math.round(performance.now() - started) });
    if (dataset?.status !== 'active') {
      // Archived or deleted since the search read its scope: this search has it, the memory does not keep it.
      this.forget(datasetId, 'not active');
      return;
    }
    if (report.how === 'built' || this.dueForSave(entry)) this.saveLater(entry);
    this.evict();
  }

  private note(report: LoadReport): void {
    this.#counts[report.how === 'snapshot' ? 'restored' : 'built']++;
    this.loads.push(report);
    if (this.loads.length > 100) this.loads.shift();
    if (report.distrusted) this.options.log?.warn({ ...report }, 'search memory did not use a saved dataset and built it instead');
    else this.options.log?.debug?.({ ...report }, 'search memory loaded a dataset');
  }

  /** The saved copy's bytes; null when there is none, or why it could not be read. */
  private async readSaved(datasetId: string): Promise<Buffer | string | null> {
    if (!this.options.snapshots) return null;
    try {
      return (await this.options.snapshots.get(snapshotKey(datasetId)))?.body ?? null;
    } catch (error) {
      return `the object store did not answer: ${(error as Error).message}`;
    }
  }

  private dueForSave(entry: Entry): boolean {
    return entry.changesSinceSaved >= Math.max(CHANGES_BEFORE_SAVE, entry.memory.docs.size / 10);
  }

  /**
   * Saves the dataset's copy after the search that loaded it has gone on: the copy is taken at one
   * instant (the memory and its cursor as they stand), encoded a slice at a time and written in
   * the background, and a failure only logged (the next load builds, as without a copy).
   */
  private saveLater(entry: Entry): void {
    const store = this.options.snapshots;
    if (!store || this.saves.has(entry.datasetId)) return;
    const saved = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        if (this.closed || !this.holds(entry)) return;
        // Taken now: the memory and its cursor as they stand (the encoding copies both before it first yields).
        const encoding = encodeSnapshot(entry.datasetId, entry.cursor, entry.memory, this.lexicon);
        entry.changesSinceSaved = 0;
        await store.put(snapshotKey(entry.datasetId), await encoding, { contentType: 'application/octet-stream' });
        // A copy of an earlier format is never read again: gone once this one is saved. Saves are
        // rare (a build, then a tenth of the dataset changed), so no memory of it being done is kept.
        await Promise.all(earlierSnapshotKeys(entry.datasetId).map((key) => store.delete(key)));
      })
      .catch((error: unknown) => this.options.log?.warn({ err: error, datasetId: entry.datasetId }, 'search memory could not save a dataset'))
      .finally(() => this.saves.delete(entry.datasetId));
    this.saves.set(entry.datasetId, saved);
  }

  /**
   * Past the budget, drops the least recently searched datasets until it holds again: never one a
   * search is waiting for, nor the most recently searched one, so a dataset larger than the whole
   * budget still loads and answers (the others go), said once in the log.
   */
  private evict(): void {
    if (!Number.isFinite(this.budget)) return;
    const held = this.held();
    let total = held.reduce((sum, entry) => sum + entry.memory.memoryBytes(), 0);
    if (total <= this.budget) return;
    const newest = held.reduce((a, b) => (b.lastSearched > a.lastSearched ? b : a));
    for (const entry of held.sort((a, b) => a.lastSearched - b.lastSearched)) {
      if (total <= this.budget) break;
      if (entry.searching > 0 || entry === newest) continue;
      total -= entry.memory.memoryBytes();
      this.forget(entry.datasetId, 'least recently searched, past SEARCH_MEMORY_MB');
      this.#counts.evicted++;
      if (entry.loadedAt && Date.now() - entry.loadedAt < RELOADED_WITHIN_MS) {
        this.#counts.evictedSoonAfterLoad++;
        this.tooSmall(entry);
      }
    }
    const alone = newest.memory.memoryBytes();
    if (alone > this.budget && !this.toldTooLarge.has(newest.datasetId)) {
      this.toldTooLarge.add(newest.datasetId);
      this.options.log?.info(
        { datasetId: newest.datasetId, items: newest.memory.docs.size, mb: Math.round(alone / 2 ** 20), budgetMb: Math.round(this.budget / 2 ** 20) },
        'a dataset is larger than SEARCH_MEMORY_MB: it is held alone while it is the most recently searched',
      );
    }
  }

  private tooSmall(dropped: Entry): void {
    this.droppedSoon++;
    const now = Date.now();
    if (now - this.warnedSmallAt < WARN_EVERY_MS) return;
    this.options.log?.warn(
      {
        datasetId: dropped.datasetId,
        secondsAfterLoad: Math.round((now - dropped.loadedAt!) / 1000),
        droppedSoon: this.droppedSoon,
        heldMb: Math.round(this.heldBytes() / 2 ** 20),
        budgetMb: Math.round(this.budget / 2 ** 20),
      },
      'search memory dropped a dataset soon after loading it, to stay within SEARCH_MEMORY_MB: the datasets being searched do not fit, and searches reload what others dropped; raise SEARCH_MEMORY_MB or spread organizations over more API processes',
    );
    this.warnedSmallAt = now;
    this.droppedSoon = 0;
  }

  private async catchUp(head: bigint | null): Promise<void> {
    if (this.closed) return;
    // Each dataset with the memory it had when the run began: one rebuilt meanwhile keeps its own cursor.
    const taken = this.held().map((entry) => ({ entry, memory: entry.memory, cursor: entry.cursor }));
    if (!taken.length) return;
    const from = taken.reduce((low, t) => (t.cursor < low ? t.cursor : low), taken[0]!.cursor);
    const byId = new Map(taken.map((t) => [t.entry.datasetId, t]));
    const last = await readChanges(
      this.db,
      from,
      taken.map((t) => t.entry.datasetId),
      (row) => {
        const t = byId.get(row.dataset_id);
        if (!t || BigInt(row.change_seq) <= t.cursor) return;
        applyRow(t.memory, row, this.lexicon);
        t.entry.changesSinceSaved++;
      },
    );
    const reached = head !== null && head > last ? head : last;
    for (const { entry, memory } of taken) {
      if (!this.holds(entry) || entry.memory !== memory) continue;
      if (reached > entry.cursor) entry.cursor = reached;
      const graph = memory.vectors;
      if (graph && graph.tombstones > Math.max(TOMBSTONES_BEFORE_RELOAD, graph.size)) this.reload(entry);
      else if (this.dueForSave(entry)) this.saveLater(entry);
    }
    this.evict();
  }

  /**
   * A fresh copy of the dataset's memory, built beside the one in use and swapped in with its own
   * cursor (the next follow catches it up): how a graph full of tombstones is rebuilt, searches
   * going on meanwhile.
   */
  private reload(entry: Entry): void {
    if (this.reloading.has(entry.datasetId)) return;
    this.reloading.add(entry.datasetId);
    buildDataset(this.db, entry.datasetId, this.lexicon)
      .then((built) => {
        if (!this.holds(entry) || this.closed) return;
        entry.memory = built.memory;
        entry.cursor = built.cursor;
        this.saveLater(entry);
      })
      .catch((error) => this.options.onError?.(error))
      .finally(() => this.reloading.delete(entry.datasetId));
  }
}

/** A parsed JSON value made read-only throughout: searches share it, and a change by one would show in the next. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
