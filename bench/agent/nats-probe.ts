// The bare NATS hop, the relay's baseline: a process of its own with nothing else to do publishes a
// stamped frame (`at`, as an agent worker stamps it) every PERIOD_MS on one turn subject, and the
// API process hears it on its turn channel's connection, beside the relay. Its hop is NATS plus the
// API process's own event loop, without an agent worker's busy loop in front of it; the relay's hop
// minus this one is what the worker's side adds.
//   node --import tsx bench/agent/nats-probe.ts NATS_URL SUBJECT   (runs until SIGTERM)
// `startNatsProbe` listens, spawns it and collects the hops.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connect } from '@nats-io/transport-node';
import type { TurnChannel } from '../../infra/channel/port.js';

const PERIOD_MS = 20;

export interface NatsProbe {
  /** Hops heard since the last call (ms), and clears them. */
  take(): number[];
  stop(): Promise<void>;
}

/** Listens on a probe turn's subject of `prefix` (with the channel's own, unwatched `listen`) and starts the publisher. */
export async function startNatsProbe(natsUrl: string, prefix: string, listen: TurnChannel['listen']): Promise<NatsProbe> {
  const turnId = `probe-${randomUUID()}`;
  let hops: number[] = [];
  const subscription = await listen(turnId, (frame) => {
    if (typeof frame.at === 'number') hops.push(performance.timeOrigin + performance.now() - frame.at);
  });
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), natsUrl, `${prefix}.agent.turn.${turnId}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    take() {
      const out = hops;
      hops = [];
      return out;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      subscription.close();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, subject] = process.argv.slice(2) as [string, string];
  const nc = await connect({ servers: url });
  let seq = 0;
  const timer = setInterval(() => nc.publish(subject, JSON.stringify({ seq: ++seq, at: performance.timeOrigin + performance.now(), kind: 'heartbeat' })), PERIOD_MS);
  process.once('SIGTERM', () => {
    clearInterval(timer);
    void nc.drain().then(() => process.exit(0));
  });
}
