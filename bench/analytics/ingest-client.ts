// The load of bench/analytics.ts's ingest figure, in its own process so the load generator does not
// share the server's event loop: 32 connections POSTing batches of shopper events to /v1/events,
// each request on the next of many widget sessions, every event with a client id never sent before.
// Reads its settings as JSON from argv[2]; prints autocannon's result as JSON.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

interface Settings {
  url: string;
  tokens: string[];
  batch: number;
  connections: number;
  seconds: number;
  /** Requests per second across all connections; absent: as fast as the server answers. */
  rate?: number;
}

const settings = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Settings;
const TYPES = ['widget_open', 'message_sent', 'product_view', 'product_click', 'add_to_cart', 'cart_outcome', 'purchase'] as const;
let request = 0;

const body = (n: number): string => {
  const events = Array.from({ length: settings.batch }, (_, i) => {
    const type = TYPES[i % TYPES.length]!;
    const money = type === 'add_to_cart' || type === 'purchase' ? { value: 49.5, currency: 'CAD' } : {};
    const item = type === 'product_view' || type === 'product_click' || type === 'add_to_cart' ? { itemId: `item-${i}` } : {};
    return { type, eventId: `r${n}-e${i}`, at: new Date().toISOString(), ...item, ...money, data: { page: '/collections/summer' } };
  });
  return JSON.stringify({ events });
};

const result = await autocannon({
  url: settings.url,
  connections: settings.connections,
  duration: settings.seconds,
  ...(settings.rate ? { overallRate: settings.rate } : {}),
  requests: [
    {
      method: 'POST',
      setupRequest: (req) => {
        const n = request++;
        return { ...req, headers: { 'content-type': 'application/json', 'x-service-session': settings.tokens[n % settings.tokens.length]! }, body: body(n) };
      },
    },
  ],
});
process.stdout.write(JSON.stringify({ requests: { average: result.requests.average, total: result.requests.total }, latency: { p50: result.latency.p50, p99: result.latency.p99 }, non2xx: result.non2xx, errors: result.errors }));
