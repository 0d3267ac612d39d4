// Orama (@orama/orama, in process) over the same search read model the search memory reads: the
// same rows (`search_documents` joined to `item_embeddings`, read page by page with
// projections/search-memory/rows.ts), the same four weighted fields and the same vectors.
//
// Text: the stored document is a Postgres tsvector (`english` configuration, weights A to D as
// domain/search/document.ts writes them). Each field is rebuilt from it as its lexemes, each
// repeated once per position, so Orama sees exactly the tokens, and the term frequencies, our
// engine sees; Orama's own stemming is off (the words are stemmed already, and the query's words
// are stemmed by the same Postgres configuration before they are sent). Field weights are
// DOCUMENT_FIELD_WEIGHTS as Orama `boost`s (BM25 per field, multiplied).
// Filters: dataset, family, slot, gender, age group and colour family as enums, the stored price as a number.
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import type { Kysely } from 'kysely';
import { DOCUMENT_FIELD_WEIGHTS } from '../../domain/search/document.js';
import { readActiveRows, type LoadedRow } from '../../projections/search-memory/rows.js';

export type FieldLetter = 'A' | 'B' | 'C' | 'D';

/** A tsvector's text (`'dress':1A,4B 'red':3B`) as the words of each weighted field, each repeated once per position. */
export function tsvectorFields(document: string): Record<FieldLetter, string> {
  const fields: Record<FieldLetter, string[]> = { A: [], B: [], C: [], D: [] };
  for (const match of document.matchAll(/'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g)) {
    const lexeme = match[1]!.replace(/''/g, "'");
    const positions = match[2] ? match[2].split(',') : ['D'];
    for (const position of positions) {
      const letter = (/[A-D]$/.exec(position)?.[0] ?? 'D') as FieldLetter;
      fields[letter].push(lexeme);
    }
  }
  return { A: fields.A.join(' '), B: fields.B.join(' '), C: fields.C.join(' '), D: fields.D.join(' ') };
}

export interface OramaQuery {
  /** Words, stemmed already. */
  term: string;
  vector: number[] | null;
  limit: number;
  where: Record<string, unknown>;
  hybridWeights: { text: number; vector: number };
  /** The vector leg's cosine floor (Orama's default is 0.8). */
  similarity: number;
}

export interface OramaCatalogue {
  db: AnyOrama;
  items: number;
  /** Rows read from the read model, then inserted. */
  readMs: number;
  insertMs: number;
}

const schemaFor = (dimensions: number) =>
  ({
    a: 'string',
    b: 'string',
    c: 'string',
    d: 'string',
    datasetId: 'enum',
    family: 'enum',
    slot: 'enum',
    gender: 'enum',
    ageGroup: 'enum',
    colorFamily: 'enum',
    price: 'number',
    embedding: `vector[${dimensions}]`,
  }) as const;

/** Every active, labelled row of the datasets, read and indexed as the search memory reads them. */
export async function buildOrama(db: Kysely<any>, datasetIds: readonly string[], dimensions: number): Promise<OramaCatalogue> {
  const started = performance.now();
  const rows: LoadedRow[] = [];
  for (const datasetId of datasetIds) await readActiveRows(db, datasetId, (row) => rows.push(row));
  const read = performance.now();
  const orama = create({ schema: schemaFor(dimensions), components: { tokenizer: { stemming: false } } });
  const docs = rows
    .filter((row) => row.status === 'active' && row.slot !== null)
    .map((row) => {
      const f = tsvectorFields(row.document ?? '');
      return {
        id: row.item_id,
        a: f.A,
        b: f.B,
        c: f.C,
        d: f.D,
        datasetId: row.dataset_id,
        family: row.family,
        slot: row.slot,
        gender: row.gender,
        ageGroup: row.age_group ?? 'adult',
        colorFamily: row.color_family,
        price: Number(row.price),
        // An item without a vector gets the zero vector: never similar (cosine with it is NaN, below any floor).
        embedding: row.vector ?? new Array<number>(dimensions).fill(0),
      };
    });
  rows.length = 0;
  await insertMultiple(orama, docs as any, 1000);
  return { db: orama, items: docs.length, readMs: read - started, insertMs: performance.now() - read };
}

export const ORAMA_BOOST = { a: DOCUMENT_FIELD_WEIGHTS.A, b: DOCUMENT_FIELD_WEIGHTS.B, c: DOCUMENT_FIELD_WEIGHTS.C, d: DOCUMENT_FIELD_WEIGHTS.D };

/** Item ids, best first. With no words left it is a vector search; with no vector, a full-text one. */
export async function searchOrama(catalogue: OramaCatalogue, query: OramaQuery): Promise<string[]> {
  const common = { limit: query.limit, where: query.where as any };
  let result;
  if (query.term && query.vector) {
    result = await search(catalogue.db, {
      mode: 'hybrid',
      term: query.term,
      properties: ['a', 'b', 'c', 'd'],
      boost: ORAMA_BOOST,
      vector: { value: query.vector, property: 'embedding' },
      similarity: query.similarity,
      hybridWeights: query.hybridWeights,
      ...common,
    } as any);
  } else if (query.vector) {
    result = await search(catalogue.db, { mode: 'vector', vector: { value: query.vector, property: 'embedding' }, similarity: query.similarity, ...common } as any);
  } else {
    result = await search(catalogue.db, { term: query.term, properties: ['a', 'b', 'c', 'd'], boost: ORAMA_BOOST, ...common } as any);
  }
  return result.hits.map((hit: { id: string }) => hit.id);
}
