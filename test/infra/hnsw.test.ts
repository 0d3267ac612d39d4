// The HNSW vector index against an exact scan: it finds (nearly) the same nearest neighbours,
// replaces and removes by key, and refuses vectors of the wrong size.
import t from 'tap';
import { embedText } from '../../infra/models/hashed-embedder.js';
import { createHnswIndex, exactNearest, restoreHnswIndex } from '../../infra/vectors/hnsw.js';

const GARMENTS = ['dress', 'shirt', 'boots', 'sneakers', 'jacket', 'coat', 'skirt', 'trousers', 'jeans', 'hoodie', 'sweater', 'blouse', 'sandals', 'hat', 'scarf'];
const COLOURS = ['red', 'navy', 'black', 'white', 'olive', 'camel', 'pink', 'burgundy', 'grey', 'cream', 'mustard', 'teal'];
const MATERIALS = ['linen', 'wool', 'cotton', 'leather', 'silk', 'denim', 'suede', 'cashmere'];

/** Deterministic product texts, embedded by the offline embedder the service uses. */
function catalogue(size: number): Map<string, number[]> {
  const vectors = new Map<string, number[]>();
  for (let i = 0; i < size; i++) {
    const text = `${COLOURS[i % COLOURS.length]} ${MATERIALS[(i * 7) % MATERIALS.length]} ${GARMENTS[(i * 3) % GARMENTS.length]} style ${i % 97}`;
    vectors.set(`item-${i}`, embedText(text));
  }
  return vectors;
}

t.test('recall@10 of the index against an exact scan is at least 0.95', async (t) => {
  const vectors = catalogue(3000);
  const index = createHnswIndex({ dimensions: 256 });
  for (const [key, vector] of vectors) index.upsert(key, vector);
  t.equal(index.size, 3000);
  const queries = ['red linen dress', 'black leather boots', 'navy wool coat', 'white cotton shirt', 'pink silk blouse', 'olive suede jacket', 'grey cashmere sweater', 'camel hat'];
  let found = 0;
  let wanted = 0;
  for (const query of queries) {
    const vector = embedText(query);
    // Ties are common among hashed vectors: count a match when its similarity reaches the 10th exact one.
    const exact = exactNearest(vectors, vector, 10);
    const threshold = exact[exact.length - 1]!.similarity - 1e-3;
    const approximate = index.nearest(vector, 10);
    wanted += exact.length;
    found += approximate.filter((match) => match.similarity >= threshold).length;
  }
  const recall = found / wanted;
  t.ok(recall >= 0.95, `recall@10 ${recall.toFixed(3)}`);
  t.ok(index.memoryBytes() > 3000 * 256, 'memory reported');
});

t.test('upsert replaces a key, remove takes it out, a wrong-sized vector is refused', async (t) => {
  const index = createHnswIndex({ dimensions: 256 });
  index.upsert('a', embedText('red dress'));
  index.upsert('b', embedText('black boots'));
  t.equal(index.nearest(embedText('red dress'), 1)[0]!.key, 'a');
  index.upsert('a', embedText('navy coat'));
  t.equal(index.size, 2);
  t.equal(index.nearest(embedText('navy coat'), 1)[0]!.key, 'a', 'the new vector answers');
  t.ok(index.nearest(embedText('navy coat'), 1)[0]!.similarity > 0.99);
  index.remove('a');
  t.same(index.nearest(embedText('navy coat'), 5).map((m) => m.key), ['b']);
  t.notOk(index.has('a'));
  t.throws(() => index.upsert('c', [1, 2, 3]), /3 dimensions, the index 256/);
});

t.test('a key replaced thousands of times still answers, and fast (usearch remove is never called: add after remove hangs in 2.25.3)', async (t) => {
  const index = createHnswIndex({ dimensions: 256 });
  const words = ['red dress', 'black boots', 'navy coat', 'white shirt', 'grey sweater'];
  for (let k = 0; k < 50; k++) index.upsert(`k${k}`, embedText(`${words[k % 5]} ${k}`));
  const started = performance.now();
  for (let i = 0; i < 3000; i++) index.upsert('changing', embedText(`${words[i % 5]} changing ${i}`));
  t.ok(performance.now() - started < 10_000, 'replacements do not hang');
  t.equal(index.size, 51);
  t.equal(index.tombstones, 2999);
  const found = index.nearest(embedText(`${words[2999 % 5]} changing 2999`), 10);
  t.equal(found.length, 10, 'tombstones are not counted among the k');
  t.equal(found[0]!.key, 'changing');
  t.equal(new Set(found.map((m) => m.key)).size, 10, 'no key twice');
});

t.test('with tombstones, a search still finds k live neighbours: scattered ones, and the nearest removed', async (t) => {
  const vectors = catalogue(2000);
  const index = createHnswIndex({ dimensions: 256 });
  for (const [key, vector] of vectors) index.upsert(key, vector);
  const live = new Map(vectors);
  // A fifth removed all over the graph: the first ask, k and their share with room, holds enough.
  [...vectors.keys()].filter((_, i) => i % 5 === 2).forEach((key) => (index.remove(key), live.delete(key)));
  const scattered = embedText('navy wool coat');
  const exact = exactNearest(live, scattered, 10);
  const found = index.nearest(scattered, 10);
  t.equal(found.length, 10);
  t.ok(found.every((match) => live.has(match.key)), 'only live keys');
  t.ok(found[9]!.similarity >= exact[9]!.similarity - 1e-3, 'as near as the exact tenth');
  // Then the 300 nearest to one query removed as well: every first answer is a tombstone, and the
  // search asks again for them all.
  const crowded = embedText('red linen dress');
  for (const { key } of exactNearest(live, crowded, 300)) {
    index.remove(key);
    live.delete(key);
  }
  t.equal(index.tombstones, 700);
  const nearest = exactNearest(live, crowded, 10);
  const answer = index.nearest(crowded, 10);
  t.equal(answer.length, 10, 'k found, though the graph around the query is all tombstones');
  t.ok(answer.every((match) => live.has(match.key)), 'only live keys');
  t.ok(answer[9]!.similarity >= nearest[9]!.similarity - 1e-3, 'as near as the exact tenth among the live');
});

t.test('a graph saved and restored answers the same, keeps its tombstones and takes more vectors', async (t) => {
  const vectors = catalogue(500);
  const index = createHnswIndex({ dimensions: 256 });
  for (const [key, vector] of vectors) index.upsert(key, vector);
  index.remove('item-7');
  index.upsert('item-8', embedText('olive wool coat'));
  const image = index.image();
  t.equal(image.keys.length, 499);
  const restored = restoreHnswIndex(image);
  t.equal(restored.size, 499);
  t.equal(restored.tombstones, 2, 'the removed and the replaced vector are still in the graph, forgotten');
  for (const query of ['red linen dress', 'olive wool coat', 'black leather boots']) {
    t.same(restored.nearest(embedText(query), 10), index.nearest(embedText(query), 10), query);
  }
  t.notOk(restored.has('item-7'));
  restored.upsert('new', embedText('pink silk blouse'));
  t.equal(restored.nearest(embedText('pink silk blouse'), 1)[0]!.key, 'new', 'a vector added after the restore answers');
  t.equal(index.nearest(embedText('pink silk blouse'), 1)[0]!.key === 'new', false, 'the original is not changed by it');
  t.throws(() => restoreHnswIndex({ ...image, keys: image.keys.slice(1) }), /does not match/, 'keys that do not match the graph are refused');
});
