// A dataset's search memory saved whole, so a process that needs it reads it instead of building it
// (the HNSW graph alone takes seconds to build one vector at a time at 10,000 items, milliseconds
// to load). Kept in the object store, one object a dataset, under a key naming this format: a
// process of another format never reads it.
//
// What it claims: every change of the dataset up to `cursor` is in it (some later ones may be
// too). The loader applies the read model's changes after `cursor` and then checks the claim
// against the read model (projections/search-memory.ts, `restore`), so a stale copy is caught up
// and a copy of another database, or of a bug, is not trusted.
//
// Layout: MAGIC, SHA-256 of all that follows, header length (u32 LE), the header as JSON (docs as
// columns, each lexeme as text since lexeme ids are this process's own), padding to 4 bytes, every
// doc's terms (u32, ids into the header's lexemes) then every doc's weights (f32), then usearch's
// own file of the graph. Stored variants and answer bodies are not in it (they would double its
// size and its load time): a restored dataset reads each item's from the read model when a search
// first prices or shows it, and keeps them. The hash is checked before usearch sees a byte: usearch
// trusts a graph file's links, and a truncated one crashes the process (tried with 2.25.3).
import { createHash } from 'node:crypto';
import { restoreHnswIndex, type VectorIndex, type VectorIndexImage } from '../../infra/vectors/hnsw.js';
import type { DatasetMemory, SavedDocs } from './dataset.js';
import type { Lexicon } from './lexicon.js';

/** 2: the graph's vectors as i8 (format 1 held f16; a copy of it is not read, the dataset is built and saved again). */
const FORMAT = 2;
const MAGIC = Buffer.from('STYLMEM1');
const HASH_BYTES = 32;

const keyOf = (format: number, datasetId: string): string => `search-memory/v${format}/${datasetId}.bin`;
export const snapshotKey = (datasetId: string): string => keyOf(FORMAT, datasetId);
/** Where earlier formats saved the dataset: no process of this one reads them, so they are deleted once its own copy is saved. */
export const earlierSnapshotKeys = (datasetId: string): string[] => Array.from({ length: FORMAT - 1 }, (_, i) => keyOf(i + 1, datasetId));

export class UnreadableSnapshot extends Error {
  override name = 'UnreadableSnapshot';
}

interface Header {
  format: number;
  datasetId: string;
  cursor: string;
  lexemes: string[];
  docs: Omit<SavedDocs, 'datasetId' | 'terms' | 'weights' | 'lexemes'>;
  vectors: (Omit<VectorIndexImage, 'graph'> & { graphBytes: number }) | null;
}

export interface SavedDataset {
  datasetId: string;
  cursor: bigint;
  docs: SavedDocs;
  vectors: VectorIndex | null;
}

/** Docs encoded between two turns of the event loop: searches go on between slices. */
const SLICE = 1000;
const HASH_SLICE = 4 * 2 ** 20;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The memory as it is when called, claiming every change up to `cursor`. What it copies is taken
 * at once, before the first await: the list of docs (a placed doc never changes: a change places
 * a new one) and the graph's image; the rest is encoded a slice at a time.
 */
export async function encodeSnapshot(datasetId: string, cursor: bigint, memory: DatasetMemory, lexicon: Lexicon): Promise<Buffer> {
  const docs = [...memory.docs.values()];
  const image = memory.vectors?.image() ?? null;
  const local = new Map<number, number>();
  const lexemes: string[] = [];
  let termTotal = 0;
  for (const doc of docs) termTotal += doc.terms.length;
  const terms = new Uint32Array(termTotal);
  const weights = new Float32Array(termTotal);
  let at = 0;
  for (const [d, doc] of docs.entries()) {
    if (d % SLICE === SLICE - 1) await nextTurn();
    for (let i = 0; i < doc.terms.length; i++) {
      const id = doc.terms[i]!;
      let mine = local.get(id);
      if (mine === undefined) {
        mine = lexemes.length;
        local.set(id, mine);
        lexemes.push(lexicon.word(id) ?? '');
      }
      terms[at] = mine;
      weights[at++] = doc.weights[i]!;
    }
  }
  const column = <T>(of: (doc: (typeof docs)[number]) => T): T[] => docs.map(of);
  await nextTurn();
  const header: Header = {
    format: FORMAT,
    datasetId,
    cursor: cursor.toString(),
    lexemes,
    docs: {
      itemId: column((d) => d.itemId),
      sourceId: column((d) => d.sourceId),
      slotName: column((d) => d.slotName),
      family: column((d) => d.family),
      gender: column((d) => d.gender),
      ageGroup: column((d) => d.ageGroup),
      colorFamily: column((d) => d.colorFamily),
      colors: column((d) => d.colors),
      pattern: column((d) => d.pattern),
      materials: column((d) => d.materials),
      fit: column((d) => d.fit),
      featureKeys: column((d) => d.featureKeys),
      price: column((d) => d.price),
      currency: column((d) => d.currency),
      queuedAt: column((d) => d.queuedAt),
      names: column((d) => d.names ?? null),
      vectorSum: column((d) => (Number.isNaN(d.vectorSum) ? null : d.vectorSum)),
      changeSeq: column((d) => d.changeSeq),
      termCount: column((d) => d.terms.length),
    },
    vectors: image && { dimensions: image.dimensions, connectivity: image.connectivity, keys: image.keys, numbers: image.numbers, next: image.next, graphBytes: image.graph.length },
  };
  const json = Buffer.from(JSON.stringify(header));
  const headerEnd = MAGIC.length + HASH_BYTES + 4 + json.length;
  const padding = (4 - (headerEnd % 4)) % 4;
  // One copy: the magic and the hash's room come first, the hash is written into its place at the end.
  const whole = Buffer.concat([
    MAGIC,
    Buffer.alloc(HASH_BYTES + 4),
    json,
    Buffer.alloc(padding),
    Buffer.from(terms.buffer, terms.byteOffset, terms.byteLength),
    Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength),
    image?.graph ?? Buffer.alloc(0),
  ]);
  const body = whole.subarray(MAGIC.length + HASH_BYTES);
  body.writeUInt32LE(json.length, 0);
  await nextTurn();
  const hash = createHash('sha256');
  for (let from = 0; from < body.length; from += HASH_SLICE) {
    hash.update(body.subarray(from, from + HASH_SLICE));
    await nextTurn();
  }
  hash.digest().copy(whole, MAGIC.length);
  return whole;
}

/** A saved dataset read back, its lexemes numbered in `lexicon`. Throws UnreadableSnapshot on anything amiss. */
export function decodeSnapshot(bytes: Buffer, datasetId: string, lexicon: Lexicon): SavedDataset {
  if (bytes.length < MAGIC.length + HASH_BYTES + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new UnreadableSnapshot('not a search memory snapshot');
  const body = bytes.subarray(MAGIC.length + HASH_BYTES);
  if (!createHash('sha256').update(body).digest().equals(bytes.subarray(MAGIC.length, MAGIC.length + HASH_BYTES))) throw new UnreadableSnapshot('its checksum does not match: damaged or cut short');
  const jsonLength = body.readUInt32LE(0);
  let header: Header;
  try {
    header = JSON.parse(body.toString('utf8', 4, 4 + jsonLength)) as Header;
  } catch {
    throw new UnreadableSnapshot('its header is not JSON');
  }
  if (header.format !== FORMAT || header.datasetId !== datasetId) throw new UnreadableSnapshot(`format ${header.format} of dataset ${header.datasetId}`);
  const columns = header.docs;
  const termTotal = columns.termCount.reduce((sum, n) => sum + n, 0);
  const start = MAGIC.length + HASH_BYTES + 4 + jsonLength;
  const termsAt = start + ((4 - (start % 4)) % 4) - MAGIC.length - HASH_BYTES;
  const graphAt = termsAt + termTotal * 8;
  if (graphAt + (header.vectors?.graphBytes ?? 0) !== body.length) throw new UnreadableSnapshot('its sections do not add up');
  // Copied out so the docs hold arrays of their own, not views keeping the whole snapshot alive.
  const terms = new Uint32Array(body.buffer.slice(body.byteOffset + termsAt, body.byteOffset + termsAt + termTotal * 4));
  const weights = new Float32Array(body.buffer.slice(body.byteOffset + termsAt + termTotal * 4, body.byteOffset + graphAt));
  const count = columns.itemId.length;
  if (Object.values(columns).some((column) => !Array.isArray(column) || column.length !== count)) throw new UnreadableSnapshot('its columns differ in length');
  for (let i = 0; i < terms.length; i++) if (terms[i]! >= header.lexemes.length) throw new UnreadableSnapshot('a term names no lexeme');
  const docs: SavedDocs = { ...columns, datasetId, terms, weights, lexemes: header.lexemes.map((lexeme) => lexicon.id(lexeme)) };
  let vectors: VectorIndex | null = null;
  if (header.vectors) {
    const { graphBytes, ...image } = header.vectors;
    try {
      vectors = restoreHnswIndex({ ...image, graph: body.subarray(graphAt, graphAt + graphBytes) });
    } catch (error) {
      throw new UnreadableSnapshot(`its graph does not load: ${(error as Error).message}`);
    }
  }
  return { datasetId, cursor: BigInt(header.cursor), docs, vectors };
}
