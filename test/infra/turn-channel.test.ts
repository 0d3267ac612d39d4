// Runs the TurnChannel contract on the in-process channel, and on NATS when NATS_URL names a server
// (the integration run sets it), where each channel gets subjects under a random prefix.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { createInProcessChannel } from '../../infra/channel/inprocess.js';
import { openNatsChannel } from '../../infra/channel/nats.js';
import type { TurnFrame } from '../../infra/channel/port.js';
import { framesOf, Inbox, turnChannelContract, type ChannelAdapter } from './turn-channel.contract.js';

const natsUrl = process.env.NATS_URL || undefined;
const skip = natsUrl ? false : 'NATS_URL not set: the NATS channel runs in the integration run (npm run test:integration)';

// The API and the worker share the one channel of their process.
const inProcess: ChannelAdapter = {
  name: 'inprocess',
  async open() {
    const channel = createInProcessChannel();
    return { api: channel, worker: channel };
  },
};

const randomPrefix = () => `t${randomBytes(6).toString('hex')}`;

// Two connections, as the API process and a worker process each have their own.
const nats = (url: string): ChannelAdapter => ({
  name: 'nats',
  async open() {
    const prefix = randomPrefix();
    const [api, worker] = await Promise.all([
      openNatsChannel({ url, prefix, name: `${prefix}-api` }),
      openNatsChannel({ url, prefix, name: `${prefix}-worker` }),
    ]);
    return { api, worker };
  },
});

t.test('in-process turn channel', async (t) => turnChannelContract(t, inProcess));

t.test('NATS turn channel', { skip }, async (t) => {
  const adapter = nats(natsUrl!);
  turnChannelContract(t, adapter);

  t.test('a message on a turn subject that is not a frame is ignored', async (t) => {
    const prefix = randomPrefix();
    const api = await openNatsChannel({ url: natsUrl!, prefix });
    const stranger = await connect({ servers: natsUrl! });
    t.teardown(() => Promise.all([api.close(), stranger.close()]));
    const inbox = new Inbox('strange');
    await api.listen('strange', inbox.onFrame);
    const subject = `${prefix}.agent.turn.strange`;
    for (const junk of ['not json', '[]', 'null', '{"seq":"1","kind":"heartbeat"}', '{"seq":0,"kind":"heartbeat"}', '{"seq":1,"kind":"event"}', '{"seq":1,"kind":"other"}']) {
      stranger.publish(subject, junk);
    }
    const frame = framesOf('strange', 1)[0]!;
    stranger.publish(subject, JSON.stringify(frame));
    await inbox.until(1);
    t.same(inbox.frames, [frame], 'only the well-formed frame, and the connection still works');
    await t.resolves(api.ping());
  });

  t.test('a frame over the server max_payload is dropped: the listener sees a gap in seq', async (t) => {
    const { api, worker } = await adapter.open();
    t.teardown(() => Promise.all([api.close(), worker.close()]));
    const inbox = new Inbox('huge');
    await api.listen('huge', inbox.onFrame);
    const [first, , third] = framesOf('huge', 3);
    const huge: TurnFrame = { seq: 2, kind: 'event', event: 'articles', data: 'x'.repeat(2 * 1024 * 1024) };
    worker.publish('huge', first!);
    t.doesNotThrow(() => worker.publish('huge', huge));
    worker.publish('huge', third!);
    await inbox.until(2);
    t.same(inbox.frames.map((frame) => frame.seq), [1, 3]);
  });

  t.test('publish → receive latency, one frame at a time (measured; the bound only catches a stall)', async (t) => {
    const { api, worker } = await adapter.open();
    t.teardown(() => Promise.all([api.close(), worker.close()]));
    const inbox = new Inbox('latency');
    await api.listen('latency', inbox.onFrame);
    const frames = framesOf('latency', 200);
    const latencies: number[] = [];
    for (const [i, frame] of frames.entries()) {
      const sentAt = performance.now();
      worker.publish('latency', frame);
      await inbox.until(i + 1);
      latencies.push(performance.now() - sentAt);
    }
    const sorted = latencies.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    t.comment(`latency over ${sorted.length} frames: p50 ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${at(1).toFixed(2)} ms`);
    t.ok(at(0.95) < 100, `p95 under 100 ms (${at(0.95).toFixed(2)} ms)`);
  });
});

t.test('openNatsChannel fails with one clear line when NATS cannot be reached', async (t) => {
  await t.rejects(openNatsChannel({ url: 'nats://user:secret@127.0.0.1:1', prefix: 'stylist' }), {
    message: /^cannot connect to NATS at nats:\/\/user:\*\*\*@127\.0\.0\.1:1: [^\n]+$/,
  });
});

t.test('openNatsChannel refuses a prefix that is not one subject token, before connecting', async (t) => {
  for (const prefix of ['', 'a.b', 'a>', 'a b']) {
    await t.rejects(openNatsChannel({ url: 'nats://127.0.0.1:1', prefix }), TypeError, JSON.stringify(prefix));
  }
});
