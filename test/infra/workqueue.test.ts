// Runs the WorkQueue contract on the in-process queue; the JetStream adapter's run is in
// test/integration/workqueue-jetstream.test.ts (it needs a NATS server).
import t from 'tap';
import { createInProcessQueue } from '../../infra/queue/inprocess.js';
import { openJetStreamQueue } from '../../infra/queue/jetstream.js';
import { workQueueContract, type QueueAdapter } from './workqueue.contract.js';

// One process: every "worker" shares the queue, and a crashed worker is one whose handler never
// settles (the contract's crash tests hang the handler), so crash() has nothing more to do.
const inProcess: QueueAdapter = {
  name: 'inprocess',
  async world(options) {
    const queue = createInProcessQueue(options);
    return {
      open: async () => queue,
      crash: async () => undefined,
      dispose: () => queue.close(),
    };
  },
};

t.test('in-process queue', async (t) => workQueueContract(t, inProcess));

// On NATS JetStream: test/integration/workqueue-jetstream.test.ts.

t.test('openJetStreamQueue fails with one clear line when NATS cannot be reached', async (t) => {
  await t.rejects(openJetStreamQueue({ url: 'nats://user:secret@127.0.0.1:1' }), {
    message: /^cannot connect to NATS at nats:\/\/user:\*\*\*@127\.0\.0\.1:1: [^\n]+$/,
  });
});
