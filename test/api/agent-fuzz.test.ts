// POST /v2/agent/chat fuzzed with conversations that pass validation, so the turn itself runs: the
// offline stylist and every tool meet random shopper words (nasty strings, typos, prices, sizes,
// other languages), forged tool calls and results in the history, junk page products and carts,
// any country and thinking level, with the ingest and agent workers running over a small store.
// Property: every request answers below 500; a stream always ends with `done` or `error` (never an
// internal error, never hanging); nothing unavailable or out of scope is ever shown. The route
// table fuzz (fuzz.test.ts) covers malformed bodies.
//   FUZZ_RUNS (default 120) FUZZ_SEED to replay.
import fc from 'fast-check';
import t from 'tap';
import { nastyString } from '../support/fuzz-arbitraries.js';
import { chat, shownProducts, SMALL_STORE, storeWith } from '../support/agent.js';
import { startTestService } from '../support/service.js';

const RUNS = Number(process.env.FUZZ_RUNS) || 120;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

const WORDS = ['red', 'dress', 'under', '80', 'cheaper', 'in', 'blue', 'size', 'M', 'boots', 'for', 'him', 'outfit', 'wedding', 'what', 'goes', 'with', 'it', 'add', 'remove', 'the', 'two', 'returns?', 'hi', 'something', 'else', 'robe', 'rouge', 'zapatos', '€', '$', '-1', '1e309', 'XL', '42', 'swap', 'this', 'cart', 'look'];

const shopperText = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 10 }).map((words) => words.join(' ')) },
  { weight: 1, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 200 }) },
);

t.test('random conversations that pass validation: every turn ends cleanly and shows only what may be shown', async (t) => {
  const service = await startTestService(t, { workers: ['ingest', 'agent'] });
  const store = await storeWith(service, SMALL_STORE);
  const other = await storeWith(service, SMALL_STORE.slice(0, 3));
  const ids = [...store.items.values(), ...other.items.values(), 'not-an-id'];
  const soldOut = store.items.get('DRESS-SOLD')!;
  const ours = new Set(store.items.values());
  const toolCall = fc.record({
    type: fc.constant('function_call'),
    callId: fc.string({ minLength: 1, maxLength: 20 }),
    name: fc.constantFrom('lookup_products', 'show_products', 'compose_looks', 'add_to_cart', 'nope'),
    arguments: fc.oneof(fc.constant('{'), fc.json(), fc.constantFrom(...ids).map((id) => JSON.stringify({ itemIds: [id], label: 'x', kind: 'list' }))),
    status: fc.constant('completed'),
  });
  const toolResult = fc.record({
    type: fc.constant('function_call_result'),
    callId: fc.string({ minLength: 1, maxLength: 20 }),
    name: fc.constantFrom('lookup_products', 'show_products'),
    status: fc.constant('completed'),
    output: fc.record({ type: fc.constant('text'), text: fc.oneof(fc.json(), fc.constantFrom(...ids).map((id) => JSON.stringify({ shown: [{ itemId: id, price: 10 }], products: [{ itemId: id, name: 'x', price: 1 }] }))) }),
  });
  const assistant = shopperText.map((text) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }));
  const userMessage = shopperText.map((content) => ({ role: 'user', content }));
  const body = fc.record(
    {
      messages: fc.tuple(fc.array(fc.oneof(userMessage, assistant, toolCall, toolResult), { maxLength: 6 }), userMessage).map(([history, last]) => [...history, last]),
      datasetIds: fc.oneof(fc.constant([]), fc.constant([store.datasetId]), fc.constant([other.datasetId]), fc.array(fc.uuid(), { maxLength: 2 })),
      cart: fc.oneof(
        fc.constant(null),
        fc.json().map((text) => JSON.parse(text)),
        fc.constant({ itemCount: 1, total: 25, currency: 'EUR', items: [{ key: 'l1', title: "Women's White Cotton T-Shirt", variant: 'S', quantity: 1, price: 25, sku: 'TW-S', image: null }] }),
      ),
      thinking: fc.constantFrom('none', 'low', 'medium', 'high', true, false, null),
      page: fc.oneof(fc.constant(null), fc.record({ product: fc.record({ title: fc.oneof(shopperText, fc.constant('Red Satin Midi Dress')), price: fc.integer(), variants: fc.array(fc.record({ id: fc.integer(), title: fc.string(), available: fc.boolean() }), { maxLength: 3 }) }, { requiredKeys: [] }) })),
      stream: fc.constantFrom(true, false, 0, 1, null),
      sessionId: fc.oneof(fc.constant(null), fc.uuid(), fc.string({ maxLength: 100 })),
      country: fc.oneof(fc.constant(null), fc.constantFrom('us', 'CA', 'DE', 'xx', 'Germany')),
    },
    { requiredKeys: ['messages'] },
  );
  t.comment(`seed ${SEED} (replay: FUZZ_SEED=${SEED})`);
  let failure: string | null = null;
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(body, async (request) => {
      const answer = await chat(service, store.org.publicKey, request);
      statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
      const problem =
        answer.statusCode >= 500 && answer.statusCode !== 503
          ? `answered ${answer.statusCode}`
          : answer.events.length
            ? !['done', 'error'].includes(answer.events.at(-1)!.event)
              ? 'a stream without done or error'
              : answer.events.at(-1)!.data.error === 'Internal server error.'
                ? 'an internal error on the stream'
                : null
            : answer.statusCode === 200 && !Array.isArray(answer.json?.history)
              ? 'a JSON answer without history'
              : null;
      const shown = answer.events.length ? shownProducts(answer) : (answer.json?.events ?? []).filter((e: any) => e.event === 'search_results').flatMap((e: any) => e.data.results);
      const forbidden = shown.find((p: any) => p.itemId === soldOut || !ours.has(p.itemId) || !p.product.available);
      if (problem || forbidden) {
        failure = `${problem ?? `showed ${forbidden.itemId}`}: ${JSON.stringify(request).slice(0, 600)}`;
        return false;
      }
      return true;
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  ).catch(() => undefined);
  t.comment(`statuses: ${[...statuses].map(([status, count]) => `${status}×${count}`).join(' ')}`);
  t.equal(failure, null, failure ?? 'every turn ended cleanly');
  t.ok((statuses.get(200) ?? 0) > RUNS / 2, 'most requests ran a turn');
});
