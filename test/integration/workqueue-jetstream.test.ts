// The WorkQueue contract on NATS JetStream, and what only the JetStream adapter promises: needs
// NATS_URL (the integration run). Each test gets a random prefix and deletes its streams.
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, RetentionPolicy, StorageType, jetstreamManager } from '@nats-io/jetstream';
import { jetStreamQueue } from '../../infra/queue/jetstream.js';
import type { WorkQueue } from '../../infra/queue/port.js';
import { workQueueContract, type QueueAdapter } from '../infra/workqueue.contract.js';
import { deleteStreams } from '../support/nats.js';

const natsUrl = process.env.NATS_URL || undefined;
const skip = natsUrl ? false : 'needs NATS_URL (npm run test:integration)';

const randomPrefix = () => `test_${randomBytes(6).toString('hex')}`;

const jetStream = (url: string, fixedPrefix?: string): QueueAdapter => ({
  name: 'jetstream',
  async world(options) {
    const prefix = fixedPrefix ?? randomPrefix();
    const connections = new Map<WorkQueue, NatsConnection>();
    return {
      async open() {
        const nc = await connect({ servers: url, name: prefix });
        const queue = await jetStreamQueue(nc, { prefix, ...options });
        connections.set(queue, nc);
        return queue;
      },
      async crash(queue) {
        await connections.get(queue)?.close(); // no drain, no nak: the server only sees the socket go
      },
      async dispose() {
        await Promise.all([...connections.keys()].map((queue) => queue.close()));
        await deleteStreams(url, `${prefix}_`);
      },
    };
  },
});

t.test('JetStream queue', { skip }, async (t) => {
  const url = natsUrl as string;
  workQueueContract(t, jetStream(url));

  t.test('streams are removed when a test disposes its world', async (t) => {
    const prefix = randomPrefix();
    const world = await jetStream(url, prefix).world();
    const queue = await world.open();
    await queue.enqueue('left.over', { n: 1 });
    const nc = await connect({ servers: url });
    t.teardown(() => nc.close());
    const jsm = await jetstreamManager(nc);
    const streams = async () => {
      const names: string[] = [];
      for await (const name of jsm.streams.names()) if (name.startsWith(prefix)) names.push(name);
      return names;
    };
    t.same(await streams(), [`${prefix}_left_over`], 'the queue created its stream');
    await world.dispose();
    t.same(await streams(), [], 'and dispose deleted it');
  });
});

t.test('a durable made by an older build (max_ack_pending = one process\'s concurrency) is updated on start, its messages kept', { skip }, async (t) => {
  const url = natsUrl as string;
  const prefix = randomPrefix();
  const nc = await connect({ servers: url });
  const jsm = await jetstreamManager(nc);
  t.teardown(async () => {
    await nc.close();
    await deleteStreams(url, `${prefix}_`);
  });
  const stream = `${prefix}_jobs`;
  await jsm.streams.add({ name: stream, subjects: [`${prefix}.jobs`], retention: RetentionPolicy.Workqueue, storage: StorageType.File });
  await jsm.consumers.add(stream, { durable_name: stream, ack_policy: AckPolicy.Explicit, max_ack_pending: 1, ack_wait: 30_000_000_000 });
  const js = jsm.jetstream();
  for (let n = 1; n <= 3; n++) await js.publish(`${prefix}.jobs`, JSON.stringify({ n }), { msgID: `old-${n}` });

  const queue = await jetStreamQueue(await connect({ servers: url }), { prefix, maxInFlight: 5 });
  t.teardown(() => queue.close());
  const running = new Set<number>();
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const done: number[] = [];
  await queue.consume<{ n: number }>('jobs', async (job) => {
    running.add(job.payload.n);
    await released;
    done.push(job.payload.n);
  }, { concurrency: 3, ackWaitMs: 10_000 });
  const deadline = Date.now() + 8000;
  while (running.size < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(running.size, 3, 'the three waiting messages run at once');
  t.equal((await jsm.consumers.info(stream, stream)).config.max_ack_pending, 5, 'max_ack_pending is QUEUE_MAX_IN_FLIGHT now');
  release();
  while (done.length < 3 && Date.now() < deadline + 5000) await new Promise((resolve) => setTimeout(resolve, 20));
  t.same(done.sort(), [1, 2, 3], 'every message published before the update was worked on');
});
