// Tests that run on JetStream get streams of their own (a random prefix); these go afterwards so
// the machine's NATS server does not collect empty streams run after run.
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export async function deleteStreams(url: string, namePrefix: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const names: string[] = [];
    for await (const name of jsm.streams.names()) if (name.startsWith(namePrefix)) names.push(name);
    await Promise.all(names.map((name) => jsm.streams.delete(name)));
  } finally {
    await nc.close();
  }
}
