// The offline stylist as the agent's loop sees it (the ChatModel port): the planner's reply streamed
// in word chunks, reasoning only at thinking medium and high, tool calls with ids unique in the
// conversation, a photo's colour read for "shoes like this", and a stop when the shopper leaves.
import sharp from 'sharp';
import t from 'tap';
import type { TurnContext } from '../../domain/agent/context.js';
import { functionCall, functionCallResult, type HistoryEntry } from '../../domain/agent/messages.js';
import type { ThinkingLevel } from '../../domain/agent/request.js';
import { toolSpecs } from '../../domain/agent/tools.js';
import type { ModelOutput } from '../../infra/models/chat.js';
import { chunks, createOfflineStylist, firstCallNumber, imageColour } from '../../infra/models/offline-stylist.js';
import { context } from '../support/stylist-catalogue.js';

const model = createOfflineStylist();

async function respond(messages: HistoryEntry[], options: { thinking?: ThinkingLevel; signal?: AbortSignal; context?: Partial<TurnContext> } = {}): Promise<ModelOutput[]> {
  const outputs: ModelOutput[] = [];
  const ctx = context(options.context);
  for await (const output of model.respond({ context: ctx, instructions: '', messages, tools: toolSpecs(ctx.hasCart), thinking: options.thinking ?? 'low', signal: options.signal ?? new AbortController().signal }))
    outputs.push(output);
  return outputs;
}

/** A square of `colour` on white, as a shopper's photo would be sent: a PNG data URI. */
async function photo(colour: { r: number; g: number; b: number }): Promise<string> {
  const inner = await sharp({ create: { width: 120, height: 120, channels: 3, background: colour } }).png().toBuffer();
  const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 255, g: 255, b: 255 } } })
    .composite([{ input: inner, top: 40, left: 40 }])
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

t.test('it is the offline stylist and takes every thinking level', async (t) => {
  t.equal(model.name, 'offline-stylist');
  t.same([...model.thinkingLevels], ['none', 'low', 'medium', 'high']);
});

t.test('given a store question, the reply streams in small word chunks that join back to it', async (t) => {
  const outputs = await respond([{ role: 'user', content: 'what is your return policy?' }]);
  const deltas = outputs.filter((o): o is Extract<ModelOutput, { type: 'text_delta' }> => o.type === 'text_delta').map((o) => o.delta);
  t.ok(deltas.length > 5, 'several fragments');
  t.ok(deltas.every((d) => d.trim().split(/\s+/).length <= 3), 'each a few words');
  t.match(deltas.join(''), /^I can't see the store's returns.*northwind-atelier\.example/);
  t.same(chunks('one two three four  five '), ['one two three', ' four  five ']);
  t.notOk(outputs.some((o) => o.type === 'tool_call'));
});

t.test('given thinking low or none, no reasoning; at medium and high, the reading first, then done', async (t) => {
  const messages: HistoryEntry[] = [{ role: 'user', content: 'red dresses under 80' }];
  for (const level of ['none', 'low'] as const) t.notOk((await respond(messages, { thinking: level })).some((o) => o.type.startsWith('thinking')), level);
  for (const level of ['medium', 'high'] as const) {
    const outputs = await respond(messages, { thinking: level });
    const done = outputs.findIndex((o) => o.type === 'thinking_done');
    t.ok(done > 0, level);
    t.match(outputs.slice(0, done).map((o) => (o.type === 'thinking_delta' ? o.delta : '')).join(''), /^Reading: .*dress · red · under 80 CAD/);
    t.equal(outputs.at(-1)!.type, 'tool_call', 'the call comes after the reasoning');
  }
});

t.test('given calls already in the conversation, new call ids follow them and are unique', async (t) => {
  const messages: HistoryEntry[] = [
    { role: 'user', content: 'red dresses' },
    functionCall('call_7', 'lookup_products', '{}'),
    functionCallResult('call_7', 'lookup_products', '{"currency":"CAD","total":0,"products":[]}'),
    { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'None.' }] },
    { role: 'user', content: 'outfit for a summer wedding' },
    functionCall('abc', 'get_articles', '{}'),
    functionCallResult('abc', 'get_articles', JSON.stringify({ currency: 'CAD', slots: [{ slot: 'full body', count: 3, minPrice: 1, maxPrice: 9, families: [{ family: 'dress', count: 3 }] }, { slot: 'footwear', count: 2, minPrice: 1, maxPrice: 9, families: [{ family: 'sandal', count: 2 }] }] })),
  ];
  const calls = (await respond(messages)).filter((o): o is Extract<ModelOutput, { type: 'tool_call' }> => o.type === 'tool_call');
  t.ok(calls.length >= 2, 'one lookup per slot');
  t.same(calls.map((c) => c.callId), calls.map((_, i) => `call_${8 + i}`));
  t.equal(firstCallNumber(messages), 8);
  t.ok(calls.every((c) => JSON.parse(c.arguments).slot), 'arguments are JSON text');
});

t.test("given a photo, its colour is read and used with the garment the words name", async (t) => {
  t.equal(await imageColour(await photo({ r: 25, g: 35, b: 85 })), 'navy');
  t.equal(await imageColour(await photo({ r: 200, g: 30, b: 40 })), 'red');
  t.equal(await imageColour('data:image/png;base64,bm90IGFuIGltYWdl'), null, 'bytes that are no image read as no colour');
  const outputs = await respond([{ role: 'user', content: [{ type: 'input_text', text: 'find shoes like this' }, { type: 'input_image', image: await photo({ r: 25, g: 35, b: 85 }) }] }]);
  const call = outputs.find((o): o is Extract<ModelOutput, { type: 'tool_call' }> => o.type === 'tool_call')!;
  t.equal(call.name, 'lookup_products');
  t.match(JSON.parse(call.arguments), { slot: 'footwear', color: 'navy' });
});

t.test('given the shopper has gone (the signal aborted), it stops at once', async (t) => {
  const controller = new AbortController();
  controller.abort(new Error('gone'));
  await t.rejects(respond([{ role: 'user', content: 'red dresses' }], { signal: controller.signal }), /gone/);
});
