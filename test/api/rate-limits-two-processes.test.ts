// The per-minute bounds outside the plan hold across API processes: this process and a
// `stylist serve --role api` child on one Postgres database, each answering over HTTP on loopback
// (so every request comes from 127.0.0.1). Shopper events are bounded per session and per client
// address, the session upload route per client address; a request counts wherever it lands. A
// widget session used through both processes also drops repeats of its event ids from the stream.
// Embedded PGlite is one process by construction: there the file is skipped, with that reason.
import t from 'tap';
import { ACCOUNT_SESSION_COOKIE } from '../../api/auth/account-session.js';
import { executeCommand } from '../../app/cli/execute.js';
import { sessionStream } from '../../domain/session/index.js';
import { startProcessCluster } from '../support/process-cluster.js';

const skip =
  !process.env.DATABASE_URL || !process.env.NATS_URL
    ? 'two API processes need one Postgres database (the integration run); embedded PGlite is a single process by construction'
    : false;

const SESSION_RPM = 4;
const ADDRESS_RPM = 12;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function post(base: string, path: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

t.test('two API processes count the same windows', { skip, timeout: 180_000 }, async (t) => {
  const { app, platform, workers, organization } = await startProcessCluster(t, {
    label: 'ratelimits',
    settings: { EVENTS_SESSION_RPM: String(SESSION_RPM), EVENTS_ADDRESS_RPM: String(ADDRESS_RPM) },
    apiRoles: [],
    workerRoles: 'api',
    workers: 1,
    organization: 'Two Process Apparel',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const here = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const there = workers[0]!.url;
  if (!there) throw new Error(`the second API process logged no address:\n${workers[0]!.tail.join('\n')}`);
  t.not(workers[0]!.pid, process.pid, 'the second API is another process');

  const session = async (base: string) => {
    const response = await fetch(`${base}/v1/widget/preflight`, { headers: { authorization: `Bearer ${organization.publicKey}` } });
    if (response.status !== 200) throw new Error(`preflight: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { session: { sessionId: string; token: string } }).session;
  };
  const send = (base: string, token: string, events: object[]) => post(base, '/v1/events', { 'x-service-session': token }, { events });
  const view = (itemId: string, eventId: string) => ({ type: 'product_view', itemId, eventId });

  await t.test('one session through both: repeats dropped from the stream, its bound counted once for both', async (t) => {
    const { sessionId, token } = await session(here);
    t.same((await send(here, token, [view('a', 'x1')])).body, { accepted: 1 });
    t.same((await send(there, token, [view('a', 'x1'), view('b', 'x2')])).body, { accepted: 1 }, 'the second process reads the ids from the stream');
    t.same((await send(here, token, [view('b', 'x2'), view('c', 'x3')])).body, { accepted: 1 }, "the first process's memory was stale: it re-read the stream and decided again");
    t.equal((await platform.eventStore.readStream(sessionStream(sessionId))).length, 3);
    t.equal((await send(there, token, [{ type: 'widget_open' }])).status, 202, `request ${SESSION_RPM} of the session, in two processes`);
    for (const [where, base] of [['this process', here], ['the other process', there]] as const) {
      const refused = await send(base, token, [{ type: 'widget_open' }]);
      t.equal(refused.status, 429, `past ${SESSION_RPM} a minute, refused by ${where}`);
      t.match(refused.body, {
        error: `Too many event requests for this session (${SESSION_RPM} per minute).`,
        bucket: 'api.v1.events.session',
        resource: 'api.v1.events.session',
        used: SESSION_RPM,
        limit: SESSION_RPM,
        windowSeconds: 60,
      });
      t.ok(refused.body.retryAfter >= 1 && refused.body.retryAfter <= 60, `retryAfter ${refused.body.retryAfter}`);
      t.equal(refused.headers.get('retry-after'), String(refused.body.retryAfter), 'and the Retry-After header says the same');
    }
    t.equal((await platform.eventStore.readStream(sessionStream(sessionId))).length, 4, 'nothing recorded once refused');
  });

  await t.test('one address through both: every session of it counts, refused by either process past the bound', async (t) => {
    // The session test sent 6 requests from this address (the 2 refused ones count too).
    const sessions = [await session(there), await session(here)];
    for (let sent = 6; sent < ADDRESS_RPM; sent++) {
      const answer = await send(sent % 2 ? here : there, sessions[sent % 2]!.token, [{ type: 'widget_open' }]);
      if (answer.status !== 202) t.fail(`address request ${sent + 1}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    for (const base of [here, there]) {
      const refused = await send(base, sessions[0]!.token, [{ type: 'widget_open' }]);
      t.same([refused.status, refused.body.error, refused.body.bucket, refused.body.used, refused.body.limit], [429, `Too many event requests from this address (${ADDRESS_RPM} per minute).`, 'api.v1.events.address', ADDRESS_RPM, ADDRESS_RPM]);
    }
  });

  await t.test('the session upload route: 30 a minute per address, whichever process answers; no Retry-After', async (t) => {
    const issued = await executeCommand(platform, ['session', 'issue', '--no-org']);
    if (!issued.ok) throw new Error(issued.error);
    const cookie = `${ACCOUNT_SESSION_COOKIE}=${(issued.result as { value: string }).value}`;
    // An account with no organization: counted (after authentication), then refused with 403.
    for (let i = 0; i < 30; i++) {
      const answer = await post(i % 2 ? here : there, '/v1/file/upload/session', { cookie }, {});
      if (answer.status !== 403) t.fail(`upload request ${i + 1}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    for (const base of [here, there]) {
      const refused = await post(base, '/v1/file/upload/session', { cookie }, {});
      t.equal(refused.status, 429);
      t.match(refused.body, { error: 'Rate limit exceeded.', bucket: 'api.v1.file.upload.session', resource: 'api.v1.file.upload.session', used: 30, limit: 30, windowSeconds: 60 });
      t.equal(refused.headers.get('retry-after'), null, 'no Retry-After header (document 1)');
    }
  });
});
